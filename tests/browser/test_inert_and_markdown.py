"""Inert output (06 QB-16, 02 UI-3/UI-4): agent text, tool results, approval program source, file
previews and library descriptions carrying HTML, script, event handlers and `javascript:` links
never execute; the Markdown renderer's fixture; 10,000 streamed chunks render and restore."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_harness import HTML_BRIDGE, PageOnlyBridge, needs_chromium, open_page

pytestmark = needs_chromium

TRAP = """
Object.defineProperty(window, "__pwned", {
  configurable: false,
  get() { return window.__pwnedValue; },
  set(v) { window.__pwnedValue = v; document.title = "PWNED " + v; },
});
"""
PAYLOAD = '<img src=x onerror=window.__pwned=1> <script>window.__pwned=2</script> [x](javascript:window.__pwned=3)'
LIBRARY = """schema_version: 1
name: evil
title: "Evil <img src=x onerror=window.__pwned=5>"
summary: "<script>window.__pwned=6</script> summary"
description: "<img src=x onerror=window.__pwned=7> [y](javascript:window.__pwned=8)"
"""


async def _assert_inert(s) -> None:
    page = s.page
    assert await page.evaluate("window.__pwnedValue === undefined")
    assert await page.locator("#app img, #files-panel img").count() == 0
    # Only the page's own module runs; the one other script element is the server's inert JSON constants.
    assert await page.locator("script:not([type='application/json'])").count() == 1
    assert await page.locator("script[type='application/json']").evaluate_all(
        "nodes => nodes.map(n => n.id)") == ["page-constants"]
    hrefs = await page.eval_on_selector_all("a[href]", "nodes => nodes.map(n => n.getAttribute('href'))")
    assert all(not h.lower().startswith("javascript:") for h in hrefs), hrefs
    assert not [u for u in s.requests if u.rstrip("/").endswith("/x")]


async def test_hostile_text_everywhere_stays_inert(tmp_path: Path) -> None:
    """On the real bridge and prover: agent text, the card's program source, a file preview, a library."""
    from playwright.async_api import expect

    project = tmp_path / "project"
    async with open_page(tmp_path, bridge=None, sign_in=False) as s:
        page = s.page
        await page.add_init_script(TRAP)
        (project / "preview.html").write_text(f"<html><body>{PAYLOAD}</body></html>\n")
        (project / "tools" / "evil" / "trusted").mkdir(parents=True)
        (project / "tools" / "evil" / "clauz3.yaml").write_text(LIBRARY)
        (project / "tools" / "evil" / "trusted" / "__init__.py").write_text("")
        await s.sign_in()
        # Agent text (the demo repeats the message) and the approval card's program source.
        await s.send(f'email bob@example.com "{PAYLOAD}"')
        card = page.locator("section.approval")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await expect(page.locator(".bubble.assistant").first).to_contain_text("<img src=x onerror=window.__pwned=1>")
        run = page.locator("section.run").last
        await run.get_by_text("Details", exact=True).first.click()
        await expect(run.locator("pre").filter(has_text="send_email(")).to_contain_text(
            "<script>window.__pwned=2</script>")
        await card.get_by_role("button", name="Reject", exact=True).click()
        await s.idle()
        # A file preview.
        await page.get_by_role("button", name="Files", exact=True).click()
        await page.get_by_role("region", name="Files").get_by_role("button", name="preview.html").click()
        await expect(page.locator(".preview-text")).to_contain_text("<script>window.__pwned=2</script>")
        await page.get_by_role("button", name="Close files").click()
        # A library description in the Libraries view (when the service lists it).
        await page.get_by_role("link", name="Libraries", exact=True).click()
        view = page.locator("#view-libraries")
        await expect(view.get_by_role("heading", name="Libraries", exact=True)).to_be_visible()
        await expect(view.locator(".library-list, .notice").first).to_be_visible(timeout=60_000)
        if await view.locator(".library-list").count():
            await expect(view).to_contain_text("<script>window.__pwned=6</script> summary", timeout=60_000)
            await expect(view).to_contain_text("Evil <img src=x onerror=window.__pwned=5>")
        await page.wait_for_timeout(300)
        await _assert_inert(s)
        s.clean()


async def test_hostile_tool_result_stays_inert(tmp_path: Path) -> None:
    """A tool result carrying HTML, shown in its card and quoted by the agent. Page mechanics only: the
    PageOnlyBridge's status tool answers the hostile text (no proof or run is involved)."""
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=HTML_BRIDGE, sign_in=False) as s:
        page = s.page
        await page.add_init_script(TRAP)
        await s.sign_in()
        await s.send("show status")
        await s.idle()
        tool = page.locator("details.tool", has_text="Check runs")
        await tool.locator("summary").first.click()
        await expect(tool.locator(".tool-result")).to_contain_text("<script>window.__pwned=12</script>")
        await tool.get_by_text("Raw tool data", exact=True).click()
        await expect(tool.locator("pre.raw")).to_contain_text("onerror")
        await page.wait_for_timeout(300)
        await _assert_inert(s)
        s.clean()


async def test_markdown_fixture_renders_safely(tmp_path: Path) -> None:
    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await s.idle()  # the restore has drawn #messages: it will not redraw over the fixture box
        result = await page.evaluate("""async () => {
          const md = await import('/ui/assets/markdown.js');
          const box = document.createElement('div');
          box.className = 'md';
          document.getElementById('messages').append(box);
          const text = [
            '# Title', '', 'Some **bold** and *em* and ~~gone~~ and `<b>code</b>`.', '',
            '- one', '  - nested <i>x</i>', '- two', '', '1. first', '2. second', '',
            '| left | right |', '|:-----|------:|', '| a | **b** |', '',
            '```html', '<b>literal</b>', '```', '', '> quoted', '', '---',
            '[ok](https://example.org/a) [bad](javascript:alert(1)) ![pic](https://example.org/p.png)',
            'bare https://example.org/x. mail [me](mailto:a@example.org) <img src=x onerror=alert(1)>',
          ].join('\\n');
          // Feed it in small pieces, as a stream would.
          const stream = new md.MarkdownStream(box);
          for (let i = 0; i < text.length; i += 7) stream.push(text.slice(i, i + 7));
          stream.end();
          const q = (sel) => box.querySelectorAll(sel);
          return {
            h: q('h3').length, strong: [...q('strong')].map(n => n.textContent), em: q('em').length,
            del: q('del').length, inlineCode: q('p code')[0].textContent,
            nested: q('ul ul li').length, ol: q('ol li').length,
            th: [...q('th')].map(n => n.className), td: q('td strong').length,
            fence: q('pre code')[0].textContent, bInFence: q('pre b').length, quote: q('blockquote').length,
            hr: q('hr').length, links: [...q('a')].map(a => [a.getAttribute('href'), a.rel, a.target]),
            img: q('img').length, i: q('i').length, text: box.textContent,
            copy: [...box.querySelectorAll('button')].map(b => b.textContent),
          };
        }""")
        assert result["h"] == 1
        assert result["strong"] == ["bold", "b"]
        assert result["em"] == 1 and result["del"] == 1
        assert result["inlineCode"] == "<b>code</b>"
        assert result["nested"] == 1 and result["ol"] == 2
        assert result["th"] == ["align-left", "align-right"] and result["td"] == 1
        assert result["fence"] == "<b>literal</b>" and result["bInFence"] == 0
        assert result["quote"] == 1 and result["hr"] == 1
        assert result["links"] == [
            ["https://example.org/a", "noopener noreferrer", "_blank"],
            ["https://example.org/x", "noopener noreferrer", "_blank"],
            ["mailto:a@example.org", "noopener noreferrer", "_blank"],
        ]
        assert result["img"] == 0 and result["i"] == 0
        assert "bad (javascript:alert(1))" in result["text"]
        assert "pic (https://example.org/p.png)" in result["text"]
        assert "<img src=x onerror=alert(1)>" in result["text"]
        assert result["copy"] == ["Copy code"]
        # Copy code copies the raw code.
        await page.locator("#messages .md").get_by_role("button", name="Copy code").click()
        assert await page.evaluate("navigator.clipboard.readText()") == "<b>literal</b>"
        s.clean()


@pytest.mark.soak  # long real-path sweep; CI runs it in the soak tier (00 DEC-2)
async def test_ten_thousand_chunks_stream_and_restore(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await s.send("count to 10000")
        reply = page.locator(".bubble.assistant .md")
        await expect(reply).to_contain_text("10000", timeout=60_000)
        await s.idle()
        text = await reply.inner_text()
        numbers = [line for line in text.split("\n") if line.strip()]
        assert numbers[0] == "1" and numbers[-1] == "10000" and len(numbers) == 10_000
        await page.reload()
        await expect(page.locator(".bubble.assistant .md")).to_contain_text("10000", timeout=60_000)
        restored = [line for line in (await page.locator(".bubble.assistant .md").inner_text()).split("\n") if line.strip()]
        assert restored == numbers
        s.clean()
