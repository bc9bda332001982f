"""Issue 22 item 5: when Send is disabled by the text itself, the composer says why — a counter near the
20,000-character limit, "too long" past it with an offer to attach the text as a file (which works), and
for text starting with "/" what "/" commands there are. Real path (real_stack)."""

from __future__ import annotations

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

pytestmark = needs_chromium


@pytest.mark.parametrize("width", WIDTHS)
async def test_composer_says_why_send_is_disabled(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 900})
        box = page.get_by_role("textbox", name="Message Demo")
        send = page.get_by_role("button", name="Send", exact=True)
        why = page.locator("#composer #composer-why")
        await box.fill("hello")
        await expect(send).to_be_enabled(timeout=60_000)
        await expect(why).to_be_hidden()

        await box.fill("x" * 19_000)
        await expect(why).to_contain_text("19,000 / 20,000 characters")
        await expect(send).to_be_enabled()

        await box.fill("y" * 20_001)
        await expect(send).to_be_disabled()
        await expect(why).to_contain_text("20,001 / 20,000 characters")
        await expect(why).to_contain_text("too long")
        await page.screenshot(path=str(tmp_path / f"too-long-{width}.png"))
        await why.get_by_role("button", name="Attach as a file").click()
        await expect(box).to_have_value("")
        await expect(page.locator("#attachments")).to_contain_text("message.txt", timeout=60_000)
        await expect(why).to_be_hidden()

        await box.fill("/help")
        await expect(send).to_be_disabled()
        await expect(why).to_contain_text("/")
        await expect(why).to_contain_text("no / commands")
        await page.screenshot(path=str(tmp_path / f"slash-{width}.png"))
        print(f"\nscreenshots: {tmp_path}")
        s.clean()
