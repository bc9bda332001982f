"""Issue 12's broken flows, on the real path (`clauz3 ui demo --tutorial email`: real launcher, demo agent,
bridge, prover, worker and authority): the transcript keeps its live order after a reload and in a second
tab (the agent's reply after its run card, never above it); the composer on a phone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_harness import needs_chromium
from real_stack import real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

# Each transcript item as a short word, in page order (run slots are looked through).
ORDER = """() => [...document.querySelectorAll('#messages .turn')].map((turn) =>
  [...turn.querySelectorAll(':scope > *, :scope > .run-slot > *')].filter((n) => !n.classList.contains('run-slot'))
    .map((n) => n.matches('.bubble.user') ? 'user' : n.matches('.bubble.assistant') ? 'reply:' + n.textContent.slice(0, 30)
      : n.matches('section.card.run') ? 'card:' + n.dataset.requestId : n.matches('.tool') ? 'tool' : n.className))"""


async def order(page: Any) -> list[list[str]]:
    return await page.evaluate(ORDER)


async def test_transcript_order_is_the_same_live_after_reload_and_in_a_second_tab(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        for text in (EMAIL.starters[0].text, EMAIL.starters[1].text):
            await s.send(text)
            approve = page.locator("section.approval").last.get_by_role("button", name="Approve", exact=True)
            await expect(approve).to_be_enabled(timeout=60_000)
            await approve.click()
            await s.idle()
        live = await order(page)
        # The reply that reports the run comes after the run's card in the live page.
        for turn in live:
            cards = [i for i, item in enumerate(turn) if item.startswith("card:")]
            replies = [i for i, item in enumerate(turn) if item.startswith("reply:Done")]
            assert cards and replies and cards[-1] < replies[-1], turn
        await page.reload()
        await expect(page.locator("section.card.run")).to_have_count(2, timeout=30_000)
        await s.idle()
        assert await order(page) == live
        second = await page.context.browser.new_context(viewport={"width": 1280, "height": 900})
        await second.add_cookies(await page.context.cookies())  # the same signed-in person, another tab
        other = await second.new_page()
        await other.goto(s.base + "/ui")
        await other.get_by_role("button", name="Use here").click()  # one tab holds the workspace at a time
        await expect(other.locator("section.card.run")).to_have_count(2, timeout=30_000)
        await expect(other.locator("#status-text")).to_have_text("Ready", timeout=30_000)
        assert await order(other) == live
        await second.close()
        s.clean()
