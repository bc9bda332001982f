"""Issue 22 item 4: a library whose manifest is broken (invalid YAML) is shown as broken, not hidden.

The Libraries view names the error, its file (as the person knows it: ``tools/<name>/clauz3.yaml``)
and its line, with no "(no manifest)" and no Mock badge; its "Use in new conversations" switch is off
and cannot be turned on; the conversation the launcher opened does not carry it, and the conversation's
"+ Libraries" popover shows it as unusable. At 1280 px and 390 px. Real path (real_stack).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import LIBRARIES, real_stack

pytestmark = needs_chromium

BROKEN = "name: broken\ntitle: Broken notes\nsummary: notes: for the team\n"


def add_broken(project: Path) -> None:
    """A library folder ``tools/broken`` whose clauz3.yaml is invalid YAML (a second colon on line 3)."""
    folder = project / "tools" / "broken"
    shutil.copytree(LIBRARIES / "gate" / "trusted", folder / "trusted")
    (folder / "clauz3.yaml").write_text(BROKEN, encoding="utf-8")


@pytest.mark.parametrize("width", WIDTHS)
async def test_broken_manifest_is_shown_and_kept_out(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial=None, libraries=("gate",), setup=add_broken) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 844})
        await expect(page.get_by_role("textbox", name="Message Demo")).to_be_visible(timeout=60_000)
        state = await s.state()
        assert "broken" not in state["libraries"], state["libraries"]
        assert "gate" in state["libraries"], state["libraries"]

        # The conversation's popover: the broken library is listed, cannot be switched on, and says why.
        await page.get_by_role("button", name="Libraries for this conversation").click()
        menu = page.get_by_role("group", name="Libraries for this conversation")
        await expect(menu).to_be_visible(timeout=60_000)
        await expect(menu).not_to_contain_text("isn't available")
        row = menu.locator("label", has_text="broken")
        await expect(row).to_contain_text("manifest has an error")
        await expect(row.get_by_role("switch")).to_be_disabled()
        await expect(row.get_by_role("switch")).not_to_be_checked()
        await page.screenshot(path=str(tmp_path / f"broken-popover-{width}.png"))
        await page.keyboard.press("Escape")

        await page.goto(s.base + "/ui/libraries")
        card = page.get_by_role("article", name="broken")
        await expect(card).to_be_visible(timeout=60_000)
        problem = card.get_by_role("alert")
        await expect(problem).to_contain_text("tools/broken/clauz3.yaml")
        await expect(problem).to_contain_text("line 3")
        await expect(problem).to_contain_text("not valid YAML")
        await expect(problem).to_contain_text("fix")
        await expect(card).not_to_contain_text("(no manifest)")
        await expect(card.locator(".badge.mock")).to_have_count(0)
        await expect(card).not_to_contain_text("Mock")
        switch = card.get_by_role("switch")
        await expect(switch).not_to_be_checked()
        await expect(switch).to_be_disabled()
        # The working library next to it is unaffected.
        await expect(page.get_by_role("article", name="Test gate").get_by_role("switch")).to_be_checked()
        box = await card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        await card.scroll_into_view_if_needed()
        shot = tmp_path / f"broken-libraries-{width}.png"
        await page.screenshot(path=str(shot))
        print(f"\nscreenshots: {shot} {tmp_path / f'broken-popover-{width}.png'}")

        # A new conversation started now leaves it out too (the service's own defaults).
        libs = await s.api("/api/workspace/libraries")
        assert "broken" not in libs["selected"], libs["selected"]
        s.clean()
