"""Issue 22 item 7, keyboard only: the Approve-and-remember confirmation focuses its safe choice (Enter
twice must not make a standing rule); Esc closes "More"; a skip link reaches the pending card's Approve;
after a decision the focus moves to the card's outcome, not the page body. Real path (real_stack)."""

from __future__ import annotations

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

pytestmark = needs_chromium
EMAIL = 'email bob@example.com "Hi"'


@pytest.mark.parametrize("width", WIDTHS)
async def test_keyboard_remember_more_skip_and_focus_after_decision(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 900})
        await s.send(EMAIL)
        card = page.locator("section.approval").last
        approve = card.get_by_role("button", name="Approve", exact=True)
        await expect(approve).to_be_enabled(timeout=60_000)

        # Skip link: after sending, the keyboard is in the message box; one Shift+Tab offers the link
        # (it was 27 Tabs to Approve), and following it lands on Approve.
        box = page.get_by_role("textbox", name="Message Demo")
        await box.focus()
        await page.keyboard.press("Shift+Tab")
        skip = page.get_by_role("link", name="Skip to the pending approval")
        await expect(skip).to_be_focused()
        await expect(skip).to_be_visible()
        await page.keyboard.press("Enter")
        await expect(approve).to_be_focused()

        # More opens with M, Esc closes it and gives the focus back to More.
        more = card.get_by_role("button", name="More", exact=True)
        await more.focus()
        await page.keyboard.press("Enter")
        remember = card.get_by_role("button", name="Approve and remember")
        await expect(card.get_by_role("button", name="Reject contract")).to_be_focused()
        await page.keyboard.press("Escape")
        await expect(remember).to_be_hidden()
        await expect(more).to_be_focused()
        await expect(more).to_have_attribute("aria-expanded", "false")

        # Approve and remember: the confirmation focuses Cancel; Enter there makes no rule.
        await page.keyboard.press("Enter")
        await expect(remember).to_be_visible()
        await remember.focus()
        await page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog", name="Approve and remember?")
        await expect(dialog).to_be_visible()
        await expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        await page.screenshot(path=str(tmp_path / f"remember-confirm-{width}.png"))
        await page.keyboard.press("Enter")
        await expect(dialog).to_be_hidden()
        record = await s.approval(await card.get_attribute("data-request-id"))
        assert record["state"] == "pending", record

        # Approve with the keyboard: the focus moves to the card's outcome.
        await approve.focus()
        await page.keyboard.press("a")
        run = page.locator("section.card.run").last
        await expect(run).to_have_attribute("data-phase", "completed", timeout=60_000)
        await expect(run).to_be_focused(timeout=60_000)
        await expect(run.locator(".one-line")).to_contain_text("Approved once by you")
        assert await page.evaluate("document.activeElement !== document.body")
        await page.screenshot(path=str(tmp_path / f"focus-after-{width}.png"))
        print(f"\nscreenshots: {tmp_path}")
        s.clean()
