"""`Undo file changes` on a finished run (02 UI-21, 05 FS-5..7) in Chromium. The stand-in bridge
runs no program, so the run's journal is written with the real journal code while the run awaits
approval; the host then offers Undo for that run and the page shows each file's outcome."""

from __future__ import annotations

import os
from pathlib import Path

from browser_harness import needs_chromium, open_page

from clauz3.stdlib.filejournal import journal_path, journaled
from clauz3.tutorials import EMAIL

pytestmark = needs_chromium


def _journal_a_change(data: Path, project: Path, request_id: str) -> None:
    path = journal_path(data, project, request_id)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    dirfd = os.open(project, os.O_DIRECTORY)
    try:
        with journaled(fd, "append_file", [(dirfd, "groceries.txt", "groceries.txt")]), \
                open(project / "groceries.txt", "a", encoding="utf-8") as fh:
            fh.write("milk\n")
    finally:
        os.close(dirfd)
        os.close(fd)


async def test_undo_file_changes_shows_outcomes(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, tutorial="email") as s:
        page = s.page
        project = Path(s.svc.host.project)
        (project / "groceries.txt").write_text("eggs\n")
        await s.send(EMAIL.starters[0].text)
        card = page.locator("section.approval")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=30_000)
        request_id = await page.locator("section.run").get_attribute("data-request-id")
        assert request_id
        _journal_a_change(tmp_path / "data", project, request_id)
        assert (project / "groceries.txt").read_text() == "eggs\nmilk\n"
        await card.get_by_role("button", name="Approve", exact=True).click()
        run = page.locator("section.run")
        await expect(run.locator(".phase")).to_have_text("Completed", timeout=30_000)
        undo = run.get_by_role("button", name="Undo file changes")
        await expect(undo).to_be_visible(timeout=10_000)
        await s.idle()
        await undo.click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_contain_text("groceries.txt — append_file")
        await dialog.get_by_role("button", name="Undo file changes").click()
        results = run.get_by_role("list", name="Undo results")
        await expect(results).to_contain_text("groceries.txt: Restored", timeout=10_000)
        assert (project / "groceries.txt").read_text() == "eggs\n"
        await expect(run.get_by_role("button", name="Undo file changes")).to_have_count(0)
        await expect(run).to_contain_text("File changes undone.", timeout=10_000)
        s.clean()
