"""Issue 22 item 9: the demo agent reads ordinary phrasing. A message in quotes followed by a
"Guarantee …" sentence gets its approval card (not "Put the message in quotes"); a help example typed
with a closing full stop works. Real path (real launcher, demo agent, bridge, prover, worker, authority).
"""

from __future__ import annotations

import re

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

pytestmark = needs_chromium

TYPED = ('Send bob@example.com "Hi there". Guarantee that only bob@example.com can receive email and that '
         "at most one email is sent.")


@pytest.mark.parametrize("width", WIDTHS)
async def test_ordinary_phrasing_gets_its_card(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 844})
        await s.send(TYPED)
        card = page.locator("section.run")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await expect(card).to_contain_text("bob@example.com")
        await expect(card).to_contain_text("Hi there")
        await expect(card).to_contain_text("At most 1 email is sent")
        # Only the guarantees asked for: no "no address gets two" limit.
        await expect(card.locator(".card-summary, .approval-info").first).not_to_contain_text(re.compile(r"no address|twice|two emails", re.I))
        await expect(page.locator("#messages")).not_to_contain_text("Put the message in quotes")
        shot = tmp_path / f"phrasing-{width}.png"
        await page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        await card.get_by_role("button", name="Reject", exact=True).click()
        await s.idle()

        await s.send("Count to 3.")
        await s.idle()
        reply = page.locator(".bubble.assistant").last
        await expect(reply).to_contain_text("3")
        await expect(page.locator("#messages")).not_to_contain_text("I only understand")
        s.clean()
