"""Issue 20 in the browser, on the real path (`clauz3 ui demo --tutorial email`: launcher, service, demo
agent, MCP bridge, prover, worker, authority, Chromium): the tutorial's "Reply to an email you read"
starter reads the mock inbox, then proposes a reply to the address it read; that second card says, in
words, next to the guarantees, that the address appears only in the email the agent read."""

from __future__ import annotations

from pathlib import Path

from browser_harness import needs_chromium
from real_stack import real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

STARTER = next(s for s in EMAIL.starters if s.label == "Reply to an email you read")


async def test_reply_card_warns_that_the_address_came_from_the_email_read(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        await s.send(STARTER.text)
        cards = s.page.locator("section.approval")
        first = cards.nth(0)
        approve = first.get_by_role("button", name="Approve", exact=True)
        await expect(approve).to_be_enabled(timeout=90_000)
        await expect(first.locator(".provenance-warning")).to_have_count(0)
        await approve.click()
        await expect(cards).to_have_count(2, timeout=90_000)
        second = cards.nth(1)
        await expect(second.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=90_000)
        warning = second.get_by_role("alert", name="Where values came from")
        await expect(warning).to_be_visible()
        await expect(warning).to_contain_text(
            "The email goes to dana@northwind-traders.example, which appears only in an email in your mock "
            "inbox, read in run 1 at ")
        await expect(warning).to_contain_text("— not in anything you wrote.")
        await expect(warning).to_contain_text("No remembered approval or policy decides this request; you do.")
        # Next to the guarantee: the warning comes before the card's "Verified limits".
        order = await second.evaluate(
            "(card) => { const w = card.querySelector('.provenance-warning');"
            " const h = [...card.querySelectorAll('h4')].find((x) => x.textContent === 'Verified limits');"
            " return Boolean(w && h && (w.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING)); }")
        assert order is True
        await second.get_by_role("button", name="Reject", exact=True).click()
        await s.idle()
        s.clean()
