"""Issue 22 (smaller): the Files panel does not show a stale size after Undo (or after a run).

Real files tutorial on the real path: open Files on notes/, append a line through a proved, approved
run — the listed size grows without pressing Refresh — then Undo: the size is back to the original
bytes on disk, in the listing and in the open preview. At 1280 px and 390 px.
"""

from __future__ import annotations

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

pytestmark = needs_chromium

PHRASE = 'append the line "milk" to notes/groceries.txt'


def size_text(n: int) -> str:
    return f"{n} B"


@pytest.mark.parametrize("width", WIDTHS)
async def test_files_panel_follows_runs_and_undo(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial="real-files") as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 844})
        target = s.project / "notes" / "groceries.txt"
        before = target.stat().st_size
        await page.locator("#files-toggle").click()
        panel = page.locator("#files-panel")
        await expect(panel).to_be_visible(timeout=60_000)
        await panel.get_by_role("button", name="Folder notes").click()
        entry = panel.locator(".entry", has_text="groceries.txt")
        await expect(entry.locator(".size")).to_have_text(size_text(before), timeout=60_000)
        await entry.click()
        preview = panel.locator("#files-preview")
        await expect(preview).to_contain_text(size_text(before))
        await page.locator("#files-close").click()  # closed, so the composer is in reach at any width

        await s.send(PHRASE)
        card = page.locator("section.run").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await card.get_by_role("button", name="Approve", exact=True).click()
        await s.idle()
        after = target.stat().st_size
        assert after > before

        await page.locator("#files-toggle").click()
        await expect(entry.locator(".size")).to_have_text(size_text(after), timeout=60_000)
        await expect(preview).to_contain_text(size_text(after))
        await page.locator("#files-close").click()

        await card.get_by_role("button", name="Undo file changes").click()
        dialog = page.get_by_role("dialog")
        await dialog.get_by_role("button", name="Undo file changes").click()
        await expect(card).to_contain_text("File changes undone.", timeout=60_000)
        assert target.stat().st_size == before
        await page.locator("#files-toggle").click()
        await expect(entry.locator(".size")).to_have_text(size_text(before), timeout=60_000)
        await expect(preview).to_contain_text(size_text(before))
        shot = tmp_path / f"files-undo-{width}.png"
        await page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        s.clean()
