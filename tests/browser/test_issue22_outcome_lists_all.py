"""Issue 22 item 2: a finished run's outcome lists every effect that ran, grouped, with counts.

"Write a summary" reads notes/meeting.md and writes output/summary.txt; the collapsed card must say both
(it said only "Read lines of notes/meeting.md." although the file was written and Undo was offered).
Real path: `clauz3 ui demo --tutorial real-files`, the real prover, worker and authority, in Chromium.
"""

from __future__ import annotations

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

from clauz3.agents.demo.script import STARTERS, WriteSummary

pytestmark = needs_chromium
PROMPT = next(text for text, intent in STARTERS.items() if isinstance(intent, WriteSummary))


@pytest.mark.parametrize("width", WIDTHS)
async def test_outcome_names_the_read_and_the_write(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial="real-files") as s:
        await s.page.set_viewport_size({"width": width, "height": 900})
        await s.send(PROMPT)
        card = s.page.locator("section.approval").last
        approve = card.get_by_role("button", name="Approve", exact=True)
        await expect(approve).to_be_enabled(timeout=60_000)
        await approve.click()
        run = s.page.locator("section.card.run").last
        await expect(run).to_have_attribute("data-phase", "completed", timeout=60_000)
        line = run.locator(".one-line")
        await expect(line).to_be_visible(timeout=60_000)
        await expect(line).to_contain_text("notes/meeting.md")
        await expect(line).to_contain_text("output/summary.txt")
        await expect(line).to_contain_text("Did 2 things:")
        assert (s.project / "output" / "summary.txt").exists()
        name = await run.get_attribute("aria-label")
        assert name and "summary.txt" in name, name
        await s.page.screenshot(path=str(tmp_path / f"outcome-{width}.png"), full_page=True)
        print(f"\nscreenshot: {tmp_path / f'outcome-{width}.png'}")
        width_now = await s.page.evaluate("document.documentElement.scrollWidth")
        assert width_now <= width, width_now
        s.clean()
