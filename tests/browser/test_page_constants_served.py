"""The page draws with the constants the server served (issue 15): the run phases' words and the limits."""

from __future__ import annotations

from pathlib import Path

from browser_harness import PageOnlyBridge, needs_chromium, open_page

from clauz3.sessions.conversation.conversation import MAX_PROMPT

pytestmark = needs_chromium


async def test_composer_and_constants_follow_the_served_block(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        served = await page.evaluate(
            "async () => { const c = await import('/ui/assets/constants.js');"
            " return {limits: c.LIMITS, final: [...c.FINAL].sort(), proving: c.PHASE_LABELS.proving}; }")
        assert served["limits"]["prompt_chars"] == MAX_PROMPT
        assert served["final"] == ["cancelled", "completed", "failed", "refused", "uncertain"]
        assert served["proving"] == "Proving guarantees"
        box = page.locator("#message")
        send = page.get_by_role("button", name="Send")
        await box.fill("x" * MAX_PROMPT)
        await expect(send).to_be_enabled(timeout=60_000)
        await box.fill("x" * (MAX_PROMPT + 1))  # one over the served limit: the page says no before sending
        await expect(send).to_be_disabled(timeout=60_000)
