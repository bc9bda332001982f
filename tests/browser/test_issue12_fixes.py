"""Issue 12's broken flows, on the real path (`clauz3 ui demo --tutorial email`: real launcher, demo agent,
bridge, prover, worker and authority): the transcript keeps its live order after a reload and in a second
tab (the agent's reply after its run card, never above it); every example the demo's help offers works in
each tutorial; the composer on a phone.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser_harness import needs_chromium, page_secret
from real_stack import real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

# Each transcript item as a short word, in page order (run slots are looked through).
ORDER = """() => [...document.querySelectorAll('#messages .turn')].map((turn) =>
  [...turn.querySelectorAll(':scope > *, :scope > .run-slot > *')].filter((n) => !n.classList.contains('run-slot'))
    .map((n) => n.matches('.bubble.user') ? 'user' : n.matches('.bubble.assistant') ? 'reply:' + n.textContent.slice(0, 30)
      : n.matches('section.card.run') ? 'card:' + n.dataset.requestId : n.matches('.tool') ? 'tool' : n.className))"""


async def order(page: Any) -> list[list[str]]:
    return await page.evaluate(ORDER)


async def test_transcript_order_is_the_same_live_after_reload_and_in_a_second_tab(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        for text in (EMAIL.starters[0].text, EMAIL.starters[1].text):
            await s.send(text)
            approve = page.locator("section.approval").last.get_by_role("button", name="Approve", exact=True)
            await expect(approve).to_be_enabled(timeout=60_000)
            await approve.click()
            await s.idle()
        live = await order(page)
        # The reply that reports the run comes after the run's card in the live page.
        for turn in live:
            cards = [i for i, item in enumerate(turn) if item.startswith("card:")]
            replies = [i for i, item in enumerate(turn) if item.startswith("reply:Done")]
            assert cards and replies and cards[-1] < replies[-1], turn
        await page.reload()
        await expect(page.locator("section.card.run")).to_have_count(2, timeout=60_000)
        await s.idle()
        assert await order(page) == live
        second = await page.context.browser.new_context(viewport={"width": 1280, "height": 900})
        # the same signed-in person in a duplicated tab (it carries the cookie and the tab's sessionStorage)
        await second.add_cookies(await page.context.cookies())
        secret = await page_secret(page)
        await second.add_init_script(f"sessionStorage.setItem('clauz3-page', {json.dumps(secret)})")
        other = await second.new_page()
        await other.goto(s.base + "/ui")
        await other.get_by_role("button", name="Use here").click()  # one tab holds the workspace at a time
        await expect(other.locator("section.card.run")).to_have_count(2, timeout=60_000)
        await expect(other.locator("#status-text")).to_have_text("Ready", timeout=60_000)
        assert await order(other) == live
        await second.close()
        s.clean()


async def finish_turn(s: Any, ends: int) -> None:
    """Approve every card the turn raises until its ``ends``-th turn_end is in the stored history."""
    from playwright.async_api import expect

    approve = s.page.locator(".decisions button.primary:not([disabled])")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if await approve.count():
            await approve.last.click()
            await expect(approve).to_have_count(0, timeout=60_000)
            continue
        history = (await s.api("/api/chat/transcript?format=json"))["history"]
        if sum(1 for f in history if f.get("method") == "clauz3/turn_end") >= ends:
            await s.idle()
            return
        await asyncio.sleep(0.2)  # polling the service; the deadline above is the only limit
    raise AssertionError(f"turn {ends} did not end")


async def last_reply(s: Any) -> str:
    """The agent's text in the last turn, from the stored history (what the page restores)."""
    history = (await s.api("/api/chat/transcript?format=json"))["history"]
    users = [i for i, f in enumerate(history) if f.get("method") == "clauz3/user"]
    text = []
    for frame in history[users[-1]:]:
        params = frame.get("params") or {}
        if frame.get("method") == "clauz3/agent" and params.get("kind") == "text":
            text.append(params["text"])
    return "".join(text)


@pytest.mark.soak  # long real-path sweep; CI runs it in the soak tier (00 DEC-2)
@pytest.mark.parametrize("tutorial", ["email", "real-files"])
async def test_every_demo_help_example_runs_to_completion(tmp_path: Path, tutorial: str) -> None:
    """Each example `help` offers in a tutorial works there: runs are approved and complete, nothing
    answers with a missing library or folder."""
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial=tutorial) as s:
        page = s.page
        await s.send("help")
        await finish_turn(s, 1)
        reply = page.locator(".bubble.assistant").last
        await expect(reply.locator("li code").first).to_be_visible()
        examples = [t for t in await reply.locator("li code").all_text_contents() if t != "help"]
        assert len(examples) >= 8, examples
        if tutorial == "real-files":
            assert 'write "hello" to output/hello.txt' in examples
        else:
            assert 'email bob@example.com "Hi"' in examples and not any("notes" in e for e in examples)
        for n, example in enumerate(examples, start=2):
            runs = len(await s.runs())
            await s.send(example)
            await finish_turn(s, n)
            said = await last_reply(s)
            for wrong in ("doesn't have the", "There is no folder", "failed", "couldn't"):
                assert wrong not in said, (example, said)
            now = await s.runs()
            if len(now) > runs:
                assert now[-1]["phase"] == "completed", (example, now[-1])
                assert "Done:" in said, (example, said)
        s.clean()


async def test_composer_takes_at_most_a_quarter_of_a_phone_screen(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await expect(page.get_by_role("textbox", name="Message Demo")).to_be_visible(timeout=60_000)
        await s.idle()
        composer = await page.locator("#composer").bounding_box()
        assert composer is not None and composer["height"] > 0
        assert composer["height"] <= 0.25 * 844, composer
        # Still usable: a message sends from it.
        await s.send("count to 3")
        await s.idle()
        await expect(page.locator(".bubble.assistant").last).to_contain_text("3")
        s.clean()


async def test_removing_a_library_in_use_names_the_conversation_and_offers_to_take_it_out(tmp_path: Path) -> None:
    """Page and host mechanics only (no proof or run): the real service with the page-only bridge."""
    from browser_harness import PageOnlyBridge, open_page
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await s.idle()
        await page.get_by_role("link", name="Libraries", exact=True).click()
        view = page.locator("#view-libraries")
        card = view.get_by_role("article", name="Environment variables")
        await expect(card).to_be_visible(timeout=60_000)
        # Every status line the view shows while installing, however briefly (the install shows progress).
        await page.evaluate("""() => { window.seen = []; new MutationObserver(() => {
          for (const n of document.querySelectorAll('#view-libraries [role=status]')) window.seen.push(n.textContent);
        }).observe(document.getElementById('view-libraries'), { childList: true, subtree: true }); }""")
        await card.get_by_role("button", name="Install Environment variables").click()
        await page.get_by_role("dialog").get_by_role("button", name="Install library").click()
        await expect(view).to_contain_text("Installed env.", timeout=60_000)
        seen = await page.evaluate("window.seen")
        assert any(t.startswith("Preparing the install") for t in seen) and "Installing…" in seen, seen
        await page.get_by_role("link", name="Chat").click()
        await page.get_by_role("button", name="Libraries for this conversation").click()
        menu = page.get_by_role("group", name="Libraries for this conversation")
        await menu.get_by_role("switch", name="env").check()
        await menu.get_by_role("button", name="Apply").click()
        await expect(page.locator("#library-chips")).to_contain_text("env", timeout=60_000)
        title = await page.locator("#title").text_content()
        deadline = time.monotonic() + 30
        while not s.svc.host.idle and time.monotonic() < deadline:  # the agent restarts with the new selection
            await asyncio.sleep(0.2)
        assert s.svc.host.idle

        await page.get_by_role("link", name="Libraries", exact=True).click()
        await view.get_by_role("article", name="Environment variables").get_by_role(
            "button", name="Remove Environment variables").click()
        await page.get_by_role("dialog").get_by_role("button", name="Remove library").click()
        dialog = page.get_by_role("dialog", name="Library in use")
        await expect(dialog).to_contain_text(f"The conversation “{title}” uses env.", timeout=60_000)
        await dialog.get_by_role("button", name="Remove from the conversation and the project").click()
        await expect(view).to_contain_text("Removed env.", timeout=60_000)
        assert not (tmp_path / "project" / ".clauz3" / "tools" / "env").exists()
        assert "env" not in s.svc.host.conversation.saved.libraries
        s.clean()


async def test_an_expired_request_offers_ask_again(tmp_path: Path) -> None:
    """The real service, demo agent, bridge, prover, worker and authority, with a 3 s approval wait."""
    from browser_harness import open_page
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=None, tutorial="email", approval_wait=3.0) as s:
        page = s.page
        await s.send(EMAIL.starters[0].text)
        first = page.locator("section.card.run").first
        await expect(first).to_contain_text("Expired before a decision.", timeout=60_000)
        await first.get_by_role("button", name="Show this run").click()
        await first.get_by_role("button", name="Ask again").click()
        box = page.get_by_role("textbox", name="Message Demo")
        await expect(box).to_have_value(re.compile(r"^Run this program:\n```python\n"))
        await s.idle()
        await page.get_by_role("button", name="Send", exact=True).click()
        second = page.locator("section.card.run").nth(1)
        approve = second.get_by_role("button", name="Approve", exact=True)
        await expect(approve).to_be_enabled(timeout=60_000)
        await approve.click()
        await expect(second.locator(".phase")).to_have_text("Completed", timeout=60_000)
        s.clean()
