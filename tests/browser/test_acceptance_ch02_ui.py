"""02 acceptance "UI" and the run-phase banner in Debian's Chromium against the real service:

- A real run (real MCP bridge, prover, worker and authority) shows "Proving guarantees", "Waiting for your
  approval" and "Executing approved action" in the `Activity` status, which then hides (TURN-10).
- Drafts survive reload and conversation switches and are cleared after their echo; New on an unused chat
  creates no row (UI-8, §4.3 ``clauz3/new``).
- Ctrl+K focuses search; Esc closes a menu and a dialog and restores focus; Shift+Enter adds a newline
  (UI-7).
- A pasted PNG becomes a chip and is sent as an image attachment (UI-24, ATT-5).
- `Undo file changes` is absent on a finished run without journal entries (UI-21).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from browser_harness import PageOnlyBridge, needs_chromium, open_page
from test_acceptance_ch02_host import PNG, Proxy  # tests/sessions is on sys.path via browser_harness

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

WATCH_ACTIVITY = """() => {
  window.__activity = [];
  const node = document.getElementById("activity");
  const record = () => window.__activity.push(node.hidden ? "(hidden)" : node.textContent.trim());
  record();
  new MutationObserver(record).observe(node, {attributes: true, childList: true, subtree: true,
                                              characterData: true});
}"""


def rows(data: Path) -> int:
    with sqlite3.connect(f"file:{data / 'conversations.sqlite'}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT count(*) FROM conversations").fetchone()[0]


async def test_a_real_run_shows_its_phases_then_hides(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, tutorial="email", bridge=None) as s:
        page = s.page
        starter = page.get_by_role("button", name="Send a mock email")
        await expect(starter).to_be_visible(timeout=60_000)
        await s.idle()
        await page.evaluate(WATCH_ACTIVITY)
        await starter.click()
        await s.send(EMAIL.starters[0].text)
        activity = page.get_by_role("status", name="Activity")
        await expect(activity).to_have_text("Waiting for your approval", timeout=60_000)
        await page.locator("section.approval").get_by_role("button", name="Approve", exact=True).click()
        await expect(page.locator("section.run").last.locator(".phase")).to_have_text("Completed", timeout=60_000)
        await s.idle()
        await expect(activity).to_be_hidden()
        seen: list[str] = await page.evaluate("window.__activity")
        shown = [t for i, t in enumerate(seen) if i == 0 or t != seen[i - 1]]
        for phase in ("Proving guarantees", "Waiting for your approval", "Executing approved action"):
            assert phase in shown, (shown, [r.phase for r in s.svc.host.conversation.runs.values()])
        order = [shown.index(p) for p in ("Proving guarantees", "Waiting for your approval",
                                          "Executing approved action")]
        assert order == sorted(order), shown
        assert shown[-1] == "(hidden)"
        s.clean()


async def test_drafts_follow_their_conversation_and_new_reuses_an_unused_chat(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        data = tmp_path / "data"
        sidebar = page.locator("#sidebar")
        box = page.get_by_role("textbox", name="Message Demo")
        await s.idle()
        # New on an unused chat: the same conversation, no new row.
        unused = s.svc.host.conversation.id
        before = rows(data)
        await page.locator("#new-conversation").click()
        await page.wait_for_timeout(500)
        await s.idle()
        assert s.svc.host.conversation.id == unused and rows(data) == before

        await s.send("count to 2")
        await s.idle()
        first = s.svc.host.conversation.id
        await box.fill("draft for the first")
        await page.locator("#new-conversation").click()
        await expect(page.get_by_role("heading", name="What would you like to do?")).to_be_visible(timeout=60_000)
        await expect(box).to_have_value("", timeout=60_000)
        second = s.svc.host.conversation.id
        assert second != first
        await s.idle()
        await box.fill("draft for the second")
        # Switch back: the first conversation's draft returns; a reload keeps it.
        await sidebar.get_by_role("button", name="count to 2").click()
        await expect(box).to_have_value("draft for the first", timeout=60_000)
        await page.reload()
        await expect(box).to_have_value("draft for the first", timeout=60_000)
        await s.idle()
        # Sending it: the echo clears the draft, and a reload shows an empty box.
        send = page.get_by_role("button", name="Send", exact=True)
        await expect(send).to_be_enabled(timeout=60_000)
        await send.click()
        await expect(page.locator(".bubble.user .user-text").last).to_have_text("draft for the first",
                                                                              timeout=60_000)
        await expect(box).to_have_value("")
        key = f"clauz3-draft:{s.svc.host.project}:{first}"
        assert await page.evaluate("(k) => sessionStorage.getItem(k)", key) is None
        await s.idle()
        await page.reload()
        await expect(page.locator(".bubble.user .user-text").last).to_have_text("draft for the first",
                                                                              timeout=60_000)
        await expect(box).to_have_value("")
        s.clean()


async def test_keyboard_search_escape_and_newline(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await s.idle()
        box = page.get_by_role("textbox", name="Message Demo")
        # Shift+Enter adds a newline and sends nothing; Enter sends.
        await box.click()
        await page.keyboard.type("count to 2")
        await page.keyboard.press("Shift+Enter")
        await page.keyboard.type("please")
        await expect(box).to_have_value("count to 2\nplease")
        await page.wait_for_timeout(300)
        assert await page.locator(".bubble.user").count() == 0
        await box.fill("count to 2")
        await page.keyboard.press("Enter")
        await expect(page.locator(".bubble.user .user-text")).to_have_text("count to 2", timeout=60_000)
        await s.idle()
        # Ctrl+K focuses search.
        await box.focus()
        await page.keyboard.press("Control+k")
        await expect(page.get_by_role("searchbox", name="Search conversations")).to_be_focused()
        # Esc closes the header menu and returns focus to its button.
        actions = page.locator("header").get_by_role("button", name="Conversation actions")
        await actions.click()
        item = page.get_by_role("menuitem", name="Export as Markdown")
        await expect(item).to_be_visible()
        await page.keyboard.press("Escape")
        await expect(item).to_be_hidden()
        await expect(actions).to_be_focused()
        # Esc closes the delete dialog (nothing deleted) and focus returns to the row's menu button.
        row = page.locator("#sidebar .history-row", has_text="count to 2")
        row_actions = row.get_by_role("button", name="Conversation actions")
        await row_actions.click()
        await page.get_by_role("menuitem", name="Delete").click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_be_visible()
        await page.keyboard.press("Escape")
        await expect(dialog).to_be_hidden()
        await expect(row_actions).to_be_focused()
        assert s.svc.host.store.get(s.svc.host.conversation.id) is not None
        # Esc closes the Files panel and returns focus to `Files`.
        files = page.get_by_role("button", name="Files", exact=True)
        await files.click()
        await expect(page.get_by_role("region", name="Files")).to_be_visible()
        await page.keyboard.press("Escape")
        await expect(page.get_by_role("region", name="Files")).to_be_hidden()
        await expect(files).to_be_focused()
        s.clean()


@pytest.fixture
def images_proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Proxy:
    rec = Proxy(tmp_path)
    rec.mode = "images"
    rec.register(monkeypatch)
    return rec


PASTE = """(bytes) => {
  const file = new File([new Uint8Array(bytes)], "image.png", {type: "image/png"});
  const data = new DataTransfer();
  data.items.add(file);
  const box = document.querySelector("textarea");
  box.focus();
  box.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}));
}"""


async def test_pasted_png_becomes_a_chip_and_an_image_block(tmp_path: Path, images_proxy: Proxy) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await s.idle()
        assert s.svc.host.conversation.capabilities.images
        await expect(page.locator("#attach-note")).to_have_text(  # issue 12: the demo has no model provider
            "The demo agent sees only each attachment's name and size; it has no model provider.")
        await page.evaluate(PASTE, list(PNG))
        chips = page.locator("#attachments")
        remove = page.get_by_role("button", name="Remove image.png")
        await expect(remove).to_be_visible(timeout=60_000)
        await expect(chips.locator("img")).to_have_count(1)  # a thumbnail for the image
        [staged] = s.svc.host.conversation.attachments
        assert staged["kind"] == "image" and staged["mime_type"] == "image/png"
        await s.send("what is this?")
        await expect(page.locator(".bubble.user .chip")).to_have_text("image.png", timeout=60_000)
        await s.idle()
        blocks = images_proxy.requests("session/prompt")[-1]["msg"]["params"]["prompt"]
        assert [b["type"] for b in blocks] == ["text", "image"] and blocks[1]["mimeType"] == "image/png"
        s.clean()


async def test_undo_is_absent_for_a_run_without_journal_entries(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, tutorial="email", bridge=None) as s:
        page = s.page
        await s.send(EMAIL.starters[0].text)
        card = page.locator("section.approval")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await card.get_by_role("button", name="Approve", exact=True).click()
        run = page.locator("section.run")
        await expect(run.locator(".phase")).to_have_text("Completed", timeout=60_000)
        await s.idle()
        await page.wait_for_timeout(500)
        await expect(run.get_by_role("button", name="Undo file changes")).to_have_count(0)
        [record] = s.svc.host.conversation.runs.values()
        assert record.to_json()["undo"] == {"available": False, "undone": False}
        s.clean()
