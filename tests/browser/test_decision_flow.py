"""The decision comes to the person (issue 12), on the real path (`clauz3 ui demo --tutorial email`: real
launcher, demo agent, bridge, prover, worker and authority): the pending card scrolls into view and its
Approve button takes focus, also after a reload; the tab title says a decision is waiting; the Approvals
view lists the pending request first; Approve and Reject up front, the rest under More; Need more info
refuses an empty question; the A key approves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_harness import needs_chromium
from real_stack import Stack, real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium


async def focused_in_view(s: Stack, card: Any) -> None:
    """Approve has the focus and lies inside the window (not below the fold)."""
    from playwright.async_api import expect

    approve = card.get_by_role("button", name="Approve", exact=True)
    await expect(approve).to_be_focused(timeout=60_000)
    box = await approve.bounding_box()
    height = await s.page.evaluate("window.innerHeight")
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, (box, height)


# Records, at the moment each user bubble is drawn (the echo of a prompt), what the page says about the agent.
ECHO_PROBE = """
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1 || !n.matches('.bubble.user')) continue;
    (window.__echoes = window.__echoes || []).push({ status: document.getElementById('status-text').textContent,
      activity: !document.getElementById('activity').hidden });
  }
}).observe(document, { childList: true, subtree: true });
"""


async def say(s: Stack, text: str) -> None:
    """Send ``text`` and wait until the page has drawn its echo, then until the turn has ended."""
    from playwright.async_api import expect

    bubbles = s.page.locator(".bubble.user")
    before = await bubbles.count()
    await s.send(text)
    await expect(bubbles).to_have_count(before + 1, timeout=60_000)
    await s.idle()


async def test_a_sent_message_never_reads_ready_while_its_turn_runs(tmp_path: Path) -> None:
    """The echo of a prompt reaches the page before the (coalesced) state frame saying the agent is busy;
    the page must not show Ready for a turn it has already drawn (the race behind the pending-card flake:
    a test, or a person, that trusts "Ready" sends into a running turn)."""
    async with real_stack(tmp_path) as s:
        page = s.page
        await page.add_init_script(ECHO_PROBE)
        await page.reload()
        for _ in range(2):
            await say(s, "count to 3")
        echoes = await page.evaluate("window.__echoes || []")
        assert len(echoes) == 2, echoes
        assert all(e["status"] != "Ready" and e["activity"] for e in echoes), echoes
        s.clean()


async def test_pending_card_comes_to_the_person(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        # A long transcript first, so the next card lands below the fold if nothing scrolls it.
        for _ in range(3):
            await say(s, "count to 40")  # each turn has ended before the next Send (no send into a running turn)
        await s.send(EMAIL.starters[0].text)
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await focused_in_view(s, card)
        await expect(page).to_have_title("(1) Decision waiting — " + (await page.locator("#title").text_content() or "") + " · clauz3")

        # Up front: Approve, Reject, More; the rest only under More, each with its line.
        main = card.locator(".decision-main").get_by_role("button")
        assert [t.strip() for t in await main.all_inner_texts()] == ["ApproveA", "RejectR", "MoreM"]
        await expect(card.get_by_role("button", name="Reject contract")).to_be_hidden()

        await page.reload()
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await focused_in_view(s, card)
        await expect(page).to_have_title("(1) Decision waiting — " + (await page.locator("#title").text_content() or "") + " · clauz3")

        # The Approvals view lists the waiting request first and leads back to it.
        await page.get_by_role("link", name="Approvals", exact=True).click()
        view = page.locator("#view-approvals")
        await expect(view.locator("h3").first).to_have_text("Waiting for your decision")
        await expect(view.locator(".pending-request")).to_have_count(1, timeout=60_000)
        await expect(view.locator(".pending-request")).to_contain_text("bob@example.com")
        await view.get_by_role("button", name="Open to decide").click()
        await expect(page).to_have_url(s.base + "/ui")

        # Need more info without a question is refused; nothing is decided.
        await card.get_by_role("button", name="More", exact=True).click()
        await expect(card.get_by_text("your question (type it above first) goes to the agent")).to_be_visible()
        await card.get_by_role("button", name="Need more info").click()
        # Issue 22: said at the question box, which is no longer "(optional)".
        await expect(card.locator(".field-error")).to_contain_text("Type your question for the agent")
        await expect(card.get_by_role("textbox", name="Your question for the agent (needed for Need more info)")
                     ).to_be_focused()
        request_id = await card.get_attribute("data-request-id")
        assert (await s.approval(request_id or ""))["state"] == "pending"

        # The A key on the focused row approves.
        await card.get_by_role("button", name="Approve", exact=True).focus()
        await page.keyboard.press("a")
        await expect(card).to_contain_text("Decision: Approved once", timeout=60_000)
        await s.idle()
        await expect(page).not_to_have_title("(1) Decision waiting", timeout=60_000)
        assert not (await page.title()).startswith("(")
        s.clean()
