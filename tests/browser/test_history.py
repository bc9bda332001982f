"""Sidebar history (02 UI-11, UI-12; 05 §12): search, inline rename, delete with confirmation,
Markdown/JSON export, Copy handoff, switching conversations and New conversation (QB-9)."""

from __future__ import annotations

import json
from pathlib import Path

from browser_harness import PageOnlyBridge, needs_chromium, open_page

pytestmark = needs_chromium


async def test_search_rename_switch_export_handoff_delete(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        sidebar = page.locator("#sidebar")
        await s.send("count to 3")
        await s.idle()
        first_id = s.svc.host.conversation.id
        await expect(sidebar.get_by_role("button", name="count to 3")).to_be_visible(timeout=60_000)

        await page.get_by_role("button", name="New conversation").click()
        await expect(page.get_by_role("heading", name="What would you like to do?")).to_be_visible(timeout=60_000)
        await s.send("help")
        await s.idle()
        await expect(sidebar.get_by_role("button", name="help", exact=True)).to_be_visible(timeout=60_000)
        second_id = s.svc.host.conversation.id
        assert second_id != first_id
        current = sidebar.locator("#history [aria-current=page]")
        await expect(current).to_have_text("help")

        # Ctrl+K focuses search; search finds assistant text of a turn.
        await page.keyboard.press("Control+k")
        search = page.get_by_role("searchbox", name="Search conversations")
        await expect(search).to_be_focused()
        await search.fill("scripted")
        await expect(sidebar.locator(".history-row")).to_have_count(1, timeout=60_000)
        await expect(sidebar.locator(".history-row")).to_contain_text("help")
        await search.fill("nothing-matches-this")
        await expect(sidebar).to_contain_text("No matching conversations")
        await search.fill("")
        await expect(sidebar.locator(".history-row")).to_have_count(2)

        # Switch to the first conversation: its transcript is restored.
        await sidebar.get_by_role("button", name="count to 3").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text("count to 3", timeout=60_000)
        await expect(page.locator(".bubble.user .user-text")).to_have_text("count to 3")

        # Inline rename from the row menu (Enter saves).
        row = sidebar.locator(".history-row", has_text="count to 3")
        await row.get_by_role("button", name="Conversation actions").click()
        await page.get_by_role("menuitem", name="Rename").click()
        title_box = sidebar.get_by_role("textbox", name="Conversation title")
        await expect(title_box).to_be_focused()
        await title_box.fill("Counting <b>drill</b>")
        await title_box.press("Enter")
        await expect(page.get_by_role("heading", level=1)).to_have_text("Counting <b>drill</b>", timeout=60_000)
        await expect(sidebar.get_by_role("button", name="Counting <b>drill</b>")).to_be_visible()

        # Exports from the header menu.
        header = page.locator("header")
        for label, suffix in (("Export as Markdown", ".md"), ("Export as JSON", ".json")):
            await header.get_by_role("button", name="Conversation actions").click()
            async with page.expect_download() as info:
                await page.get_by_role("menuitem", name=label).click()
            download = await info.value
            assert download.suggested_filename.endswith(suffix)
            body = Path(await download.path()).read_text()
            if suffix == ".json":
                assert json.loads(body)["conversation_id"] == first_id
            else:
                assert body.startswith("# Counting <b>drill</b>")

        # Copy handoff: the six-line text lands on the clipboard.
        await header.get_by_role("button", name="Conversation actions").click()
        await page.get_by_role("menuitem", name="Copy handoff").click()
        await expect(page.locator("#toast")).to_have_text("Copied", timeout=60_000)
        copied = await page.evaluate("navigator.clipboard.readText()")
        assert copied.splitlines()[0] == f"Clauz3 conversation: {first_id}"
        assert len(copied.splitlines()) == 6

        # Delete the other conversation after confirming; Cancel first changes nothing.
        other = sidebar.locator(".history-row", has_text="help")
        await other.get_by_role("button", name="Conversation actions").click()
        await page.get_by_role("menuitem", name="Delete").click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_contain_text("Delete “help”? Its transcript and attachments are removed from this computer. "
                                             "This can't be undone. Handoff files are kept.")
        # Issue 12: Cancel has the focus, so Enter never deletes.
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await page.keyboard.press("Enter")
        await expect(dialog).to_be_hidden()
        await expect(sidebar.locator(".history-row")).to_have_count(2)
        await other.get_by_role("button", name="Conversation actions").click()
        await page.get_by_role("menuitem", name="Delete").click()
        await page.get_by_role("dialog").get_by_role("button", name="Delete").click()
        await expect(sidebar.locator(".history-row")).to_have_count(1, timeout=60_000)
        assert s.svc.host.store.get(second_id) is None
        s.clean()
