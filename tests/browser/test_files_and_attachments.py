"""The Files panel (02 UI-25, §8) and attachments (UI-24, §9) in Chromium (06 QB-9)."""

from __future__ import annotations

from pathlib import Path

from browser_harness import PageOnlyBridge, needs_chromium, open_page

pytestmark = needs_chromium

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


async def test_files_panel_browses_previews_and_adds_paths(tmp_path: Path) -> None:
    from playwright.async_api import expect

    project = tmp_path / "project"
    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        (project / "notes").mkdir()
        (project / "notes" / "todo.txt").write_text("buy milk\n")
        (project / "notes" / "blob.bin").write_bytes(b"\x00\x01\x02binary")
        (project / ".secret-dot").write_text("hidden\n")
        page = s.page
        toggle = page.get_by_role("button", name="Files", exact=True)
        await toggle.click()
        await expect(toggle).to_have_attribute("aria-expanded", "true")
        panel = page.get_by_role("region", name="Files")
        await expect(panel).to_be_visible()
        await expect(panel).to_contain_text("Read-only")
        crumbs = panel.get_by_role("navigation", name="Folder path")
        await expect(crumbs).to_contain_text("Workspace")
        await expect(panel.locator("#files-status")).to_have_text("2 items", timeout=60_000)
        await expect(panel).not_to_contain_text(".secret-dot")
        await panel.get_by_role("checkbox", name="Hidden files").check()
        await expect(panel).to_contain_text(".secret-dot", timeout=60_000)
        await panel.get_by_role("checkbox", name="Hidden files").uncheck()
        await panel.get_by_role("button", name="Folder notes").click()
        await expect(crumbs).to_contain_text("notes")
        await panel.get_by_role("button", name="blob.bin").click()
        await expect(panel).to_contain_text("Preview unavailable. Only UTF-8 text files can be displayed.")
        await panel.get_by_role("button", name="todo.txt").click()
        await expect(panel.locator(".preview-text")).to_have_text("buy milk\n")
        box = page.get_by_role("textbox", name="Message Demo")
        await box.fill("read")
        await panel.get_by_role("button", name="Add path to message").click()
        await expect(box).to_have_value('read "notes/todo.txt"')
        (project / "notes" / "new.txt").write_text("x")
        await panel.get_by_role("button", name="Refresh files").click()
        await expect(panel).to_contain_text("new.txt", timeout=60_000)
        await crumbs.get_by_role("button", name="Workspace").click()
        await expect(panel.locator("#files-status")).to_have_text("2 items", timeout=60_000)
        await panel.get_by_role("button", name="Close files").click()
        await expect(panel).to_be_hidden()
        await expect(toggle).to_be_focused()
        s.clean()


async def test_files_overlay_on_narrow_screens_traps_focus_and_esc_returns(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge(), viewport={"width": 900, "height": 800}) as s:
        page = s.page
        toggle = page.get_by_role("button", name="Files", exact=True)
        await toggle.click()
        dialog = page.get_by_role("dialog", name="Files")
        await expect(dialog).to_be_visible()
        assert await page.evaluate("document.getElementById('app').inert") is True
        for _ in range(8):
            await page.keyboard.press("Tab")
            assert await page.evaluate("document.getElementById('files-panel').contains(document.activeElement)")
        await page.keyboard.press("Escape")
        await expect(dialog).to_be_hidden()
        await expect(toggle).to_be_focused()
        assert await page.evaluate("document.getElementById('app').inert") is False
        s.clean()


async def test_attachments_upload_remove_and_send(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await expect(page.get_by_role("button", name="Send", exact=True)).to_be_disabled()
        await expect(page.locator("#attach-note")).to_have_text("The demo agent sees only each attachment's name and size; it has no model provider.", timeout=60_000)
        await expect(page.get_by_role("button", name="Attach files")).to_be_enabled()
        chooser = page.locator("#file-input")
        # The demo agent takes text files but not images: the image is refused before upload.
        await chooser.set_input_files([{"name": "shot.png", "mimeType": "image/png", "buffer": PNG}])
        await expect(page.locator("#notices")).to_contain_text("Demo doesn't accept image attachments.")
        await chooser.set_input_files([{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello\n"},
                                       {"name": "other.md", "mimeType": "text/markdown", "buffer": b"# x\n"}])
        await expect(page.get_by_role("button", name="Remove notes.txt")).to_be_visible(timeout=60_000)
        await expect(page.get_by_role("button", name="Remove other.md")).to_be_visible()
        await page.get_by_role("button", name="Remove other.md").click()
        await expect(page.get_by_role("button", name="Remove other.md")).to_have_count(0, timeout=60_000)
        # The staged set survives a reload (it lives in State).
        await page.reload()
        await expect(page.get_by_role("button", name="Remove notes.txt")).to_be_visible(timeout=60_000)
        # An attachment alone may be sent (TURN-1).
        await expect(page.get_by_role("button", name="Send", exact=True)).to_be_enabled(timeout=60_000)
        await page.get_by_role("button", name="Send", exact=True).click()
        await expect(page.locator(".bubble.user .chip")).to_have_text("notes.txt", timeout=60_000)
        await expect(page.locator(".bubble.assistant")).to_contain_text("I see the attachment notes.txt", timeout=60_000)
        await expect(page.get_by_role("button", name="Remove notes.txt")).to_have_count(0)
        s.clean()
