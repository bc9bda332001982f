"""A draft surviving reload, reload restoring a pending approval, and Stop while the run awaits approval
(02 UI-8, UI-23, TURN-5..8, WS-3, STORE-13; 06 QB-9) in Chromium against the real service, bridge, prover
and worker. Stop during a turn, a proof and execution are in test_real_path_flows.py."""

from __future__ import annotations

from pathlib import Path

from browser_harness import needs_chromium, open_page

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium


async def test_stop_during_a_run_and_reload_restores_pending_approval(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, tutorial="email", bridge=None) as s:
        page = s.page
        # A draft survives reload (UI-8).
        await page.get_by_role("textbox", name="Message Demo").fill("draft that survives")
        await page.reload()
        await expect(page.get_by_role("textbox", name="Message Demo")).to_have_value("draft that survives", timeout=60_000)

        await s.send(EMAIL.starters[0].text)
        card = page.locator("section.approval")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await card.get_by_role("textbox", name="Feedback for the agent (optional)").fill("typed note")
        await page.reload()
        # Restored: the user's message, the run card and the pending approval with its buttons.
        await expect(page.locator(".bubble.user .user-text")).to_have_text(EMAIL.starters[0].text, timeout=60_000)
        card = page.locator("section.approval")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await expect(page.get_by_role("status", name="Activity")).to_have_text("Waiting for your approval")
        assert await page.locator("section.run").count() == 1
        # Stop while the run awaits approval: the run is cancelled and the card goes stale.
        await page.get_by_role("button", name="Stop", exact=True).click()
        await expect(page.locator("section.run .phase")).to_have_text("Stopped", timeout=60_000)
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_have_count(0, timeout=60_000)
        await expect(card).to_contain_text("Cancelled before a decision.")
        await s.idle()
        record = next(iter(s.svc.host.conversation.runs.values()))
        assert record.phase == "cancelled"
        s.clean()
