"""Issue 22 item 6: "Need more info" with an empty question says so at the question box itself — the box
is no longer labelled "(optional)", is marked invalid and described by the error — and nothing is sent."""

from __future__ import annotations

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

pytestmark = needs_chromium


@pytest.mark.parametrize("width", WIDTHS)
async def test_need_more_info_needs_a_question_at_the_box(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 900})
        await s.send('email bob@example.com "Hi"')
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await card.get_by_role("button", name="More", exact=True).click()
        await card.get_by_role("button", name="Need more info").click()
        box = card.locator("textarea")
        await expect(box).to_be_focused()
        await expect(box).to_have_attribute("aria-invalid", "true")
        label = await box.get_attribute("aria-label")
        assert label and "optional" not in label.lower(), label
        await expect(card.locator(".feedback")).not_to_contain_text("(optional)")
        assert "optional" not in (await box.get_attribute("placeholder") or "").lower()
        error_id = await box.get_attribute("aria-describedby")
        assert error_id
        error = page.locator(f"#{error_id}")
        await expect(error).to_be_visible()
        await expect(error).to_contain_text("Type your question")
        # The error sits right under the box, inside the card, not under the composer.
        box_at, err_at = await box.bounding_box(), await error.bounding_box()
        assert box_at and err_at and 0 <= err_at["y"] - (box_at["y"] + box_at["height"]) < 40, (box_at, err_at)
        record = await s.approval(await card.get_attribute("data-request-id"))
        assert record["state"] == "pending", record
        await page.screenshot(path=str(tmp_path / f"need-more-{width}.png"))
        print(f"\nscreenshot: {tmp_path / f'need-more-{width}.png'}")
        # Typing a question clears the error; Need more info then sends it.
        await box.fill("Why bob?")
        await expect(error).to_be_hidden()
        s.clean()
