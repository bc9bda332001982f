"""Issue 19: the standalone approval page shows exactly the chat card's summary and warnings (one renderer).

Real ``clauz3 ui demo`` stack in Chromium: a program whose guarantee and message hold look-alike letters
and a direction override gets a card with a "Look closely" warning and per-guarantee warnings; the
standalone page (``/ui/requests/<id>``, served by approvals/ui.py) must list the very same items, in the
same order, with the same per-item warnings. Before the fix the standalone page rendered its own
selection (no per-guarantee warnings, no library badges) and drifted from the card.
"""

from __future__ import annotations

from pathlib import Path

from browser_harness import needs_chromium
from real_stack import real_stack
from test_card_summary import EMAIL_IMPORTS, pending_card, program_prompt

pytestmark = needs_chromium

ITEMS = ("els => els.map(e => [e.dataset.kind, ((e.querySelector('.item-text') || e).innerText || '').trim(),"
         " [...e.querySelectorAll('.item-warning')].map(w => w.innerText.trim())])")


async def test_standalone_page_shows_exactly_the_chat_cards_summary_and_warnings(tmp_path: Path) -> None:
    source = EMAIL_IMPORTS + ("@clauz3.guarantee(emails.only([\"b\u043eb@example.com\"]))\n"
                              "@clauz3.guarantee(emails.at_most(1))\n"
                              "def main() -> None:\n"
                              "    send_email(\"b\u043eb@example.com\", \"pay \u202egnp.exe\")\n")
    rid = "req_one_renderer_0001"
    async with real_stack(tmp_path, tutorial=None) as s:
        await s.send(program_prompt(source, rid))
        card = await pending_card(s.page)
        chat = await card.locator("[data-kind]").evaluate_all(ITEMS)
        # The same browser, signed in the same way, opens the standalone page (last: it leaves the chat).
        response = await s.page.goto(f"{s.base}/ui/requests/{rid}")
        assert response is not None and response.ok
        # The standalone page renders the card after it fetches the request: wait for its items (the event), not
        # for the load (the fresh-clone run compared an empty page once).
        from playwright.async_api import expect
        await expect(s.page.locator("[data-kind]")).to_have_count(len(chat), timeout=60_000)
        page = await s.page.locator("[data-kind]").evaluate_all(ITEMS)
        kinds = [k for k, _, _ in chat]
        assert {"plan", "warning", "heading", "guarantee", "library"} <= set(kinds), chat
        # Per-guarantee warnings are shown (the look-alike letter in the guarantee's own argument).
        assert any(w for k, _, w in chat if k == "guarantee"), chat
        assert page == chat


async def test_remember_confirmation_and_approvals_view_name_the_covered_effects(tmp_path: Path) -> None:
    """Issue 19: a remembered approval covers the effects its program called, and both places a person
    decides it say which, in words."""
    from playwright.async_api import expect

    from clauz3.tutorials import EMAIL

    covers = "Covers only: sends email with send_email — nothing else."
    async with real_stack(tmp_path) as s:
        await s.send(EMAIL.starters[2].text)
        card = await pending_card(s.page)
        await card.get_by_role("button", name="More", exact=True).click()
        await card.get_by_role("button", name="Approve and remember").click()
        dialog = s.page.get_by_role("dialog", name="Approve and remember?")
        await expect(dialog.locator(".remember-covers")).to_have_text(covers)
        await dialog.get_by_role("button", name="Approve and remember").click()
        await expect(card).to_contain_text("Decision: Approved and remembered", timeout=10_000)
        await s.idle()
        await s.page.get_by_role("link", name="Approvals", exact=True).click()
        await expect(s.page.locator("#view-approvals li.rule .rule-covers")).to_have_text(covers)
        s.clean()
