"""Approval cards in the page (02 UI-18..20, 03 CARD-5, QB-9): the remember buttons on eligible records
and the Approvals view (remember, disable; 00 DEC-10), against the real service, demo agent, bridge,
prover and worker. Each decision flow on its own is in test_real_path_flows.py."""

from __future__ import annotations

from pathlib import Path

from browser_harness import needs_chromium, open_page

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium


async def _card_for_next_run(s, text: str, index: int):
    from playwright.async_api import expect

    await s.send(text)
    card = s.page.locator("section.approval").nth(index)
    await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
    return card


async def test_remember_buttons_and_approvals_view(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, tutorial="email", bridge=None) as s:
        page = s.page
        card = await _card_for_next_run(s, EMAIL.starters[0].text, 0)
        record = next(iter(s.svc.host.conversation.approvals.values()))
        # The email tutorial's contract is meant to be remembered (its "Try Approve and remember" starter).
        assert record["profile"]["eligible"], record["profile"]["reason"]
        await card.get_by_role("button", name="More", exact=True).click()  # issue 12: the rest under More
        await expect(card.get_by_role("button", name="Reject and remember")).to_be_visible()
        await card.get_by_role("button", name="Approve", exact=True).click()
        await expect(page.locator("section.run").first).to_contain_text("Completed", timeout=60_000)
        await s.idle()

        card = await _card_for_next_run(s, EMAIL.starters[2].text, 1)
        await card.get_by_role("button", name="More", exact=True).click()
        await card.get_by_role("button", name="Approve and remember").click()
        await page.get_by_role("dialog").get_by_role("button", name="Approve and remember").click()  # scope stated
        await expect(card).to_contain_text("Decision: Approved and remembered", timeout=60_000)
        decided = [r["decision"] for r in s.svc.host.conversation.approvals.values()]
        assert decided == ["approved_once", "approved_remember"]
        await s.idle()

        await page.get_by_role("link", name="Approvals", exact=True).click()
        await expect(page).to_have_url(f"{s.svc.base}/ui/profile")
        view = page.locator("#view-approvals")
        await expect(view.get_by_role("heading", name="Remembered decisions")).to_be_visible()
        await expect(view.get_by_role("button", name="Disable rule")).to_have_count(1, timeout=60_000)
        await view.get_by_role("button", name="Disable rule").click()
        await expect(view).to_contain_text("Rule disabled.")
        await expect(view.get_by_role("button", name="Disable rule")).to_have_count(0)
        # A disabled rule reads as a sentence and can be enabled again (issue 12).
        await expect(view.locator(".rule-text")).to_contain_text("Runs without asking")
        await view.get_by_role("button", name="Enable rule").click()
        await expect(view).to_contain_text("Rule enabled.")
        await view.get_by_role("button", name="Disable rule").click()
        await expect(view.get_by_role("button", name="Disable rule")).to_have_count(0)
        # The approved_once decision can be remembered afterwards (DEC-10 name).
        remember = view.get_by_role("button", name="Remember this decision")
        await expect(remember.first).to_be_visible()
        await view.get_by_role("searchbox", name="Search decisions").fill("zzz-no-such-thing")
        await expect(view).to_contain_text("No matching decisions.")
        await view.get_by_role("searchbox", name="Search decisions").fill("")
        await remember.first.click()
        dialog = page.get_by_role("dialog")  # remember asks, with the scope sentence (issue 12)
        await expect(dialog.locator(".remember-scope")).to_contain_text("at least as strict as these")
        await dialog.get_by_role("button", name="Remember: always approve").click()
        await expect(view).to_contain_text("Decision remembered.")
        await expect(view.get_by_role("button", name="Disable rule")).to_have_count(1)
        # Back to the chat: the transcript and socket survived the view change.
        await page.get_by_role("link", name="Chat").click()
        await expect(page.locator("section.run")).to_have_count(2)
        s.clean()
