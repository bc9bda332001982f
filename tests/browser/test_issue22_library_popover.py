"""Issue 22 item 3: the "+ Libraries" popover stays on-screen and unclipped at 390 px and 1280 px: its
Apply button lies inside the viewport and is the element a click at its centre reaches. Real path."""

from __future__ import annotations

import pytest
from browser_harness import needs_chromium
from real_stack import real_stack

pytestmark = needs_chromium


@pytest.mark.parametrize("width", [1280, 390])
async def test_library_popover_on_screen(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial=None, libraries=("gate",)) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 844})
        await page.get_by_role("button", name="Libraries for this conversation").click()
        menu = page.get_by_role("group", name="Libraries for this conversation")
        await expect(menu).to_be_visible(timeout=60_000)
        apply = menu.get_by_role("button", name="Apply")
        await expect(apply).to_be_visible()
        for node, what in ((menu, "popover"), (apply, "Apply")):
            box = await node.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (what, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (what, box)
        hit = await apply.evaluate("""(b) => { const r = b.getBoundingClientRect();
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return at === b || b.contains(at); }""")
        assert hit, "the Apply button is covered or clipped"
        await page.screenshot(path=str(tmp_path / f"popover-{width}.png"))
        print(f"\nscreenshot: {tmp_path / f'popover-{width}.png'}")
        s.clean()
