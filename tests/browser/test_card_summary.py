"""Issue 12 (the card's content) and issue 11 §6 (a card that cannot hide), on the real path: the real
`clauz3 ui demo` launcher, service, demo agent, MCP bridge, prover, run worker and approval authority
in Debian's Chromium (tests/browser/real_stack.py). What the card says is generated from the proof
and the run's trace; the tests read it as a person sees it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_harness import MOBILE, needs_chromium
from real_stack import real_stack

from clauz3.tutorials import EMAIL, REAL_FILES

pytestmark = needs_chromium

EMAIL_IMPORTS = ("import clauz3\n"
                 "from tools.email.trusted import contracts as emails\n"
                 "from tools.email.trusted.effects import send_email\n\n\n")


def program_prompt(source: str, request_id: str | None = None) -> str:
    head = f"Run this program as request {request_id}:" if request_id else "Run this program:"
    return f"{head}\n```python\n{source}```"


async def pending_card(page: Any, index: int = -1) -> Any:
    from playwright.async_api import expect

    card = page.locator("section.approval").nth(index)
    await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
    return card


EMAIL_SENTENCES = {
    0: ("Will send 1 mock email to bob@example.com: “Hi from clauz3”",
        ["Every email goes to bob@example.com.", "At most 1 email is sent.", "No address receives two emails."]),
    1: ("Will send 1 mock email to carol@example.com: “Lunch at noon?”",
        ["Every email goes to carol@example.com.", "At most 1 email is sent."]),
    2: ("Will send 1 mock email to bob@example.com: “Second note”",
        ["Every email goes to bob@example.com.", "At most 1 email is sent.", "No address receives two emails."]),
}


@pytest.mark.parametrize("starter", [0, 1, 2])
async def test_email_starter_card_leads_with_a_sentence_from_the_proof(tmp_path: Path, starter: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        await s.send(EMAIL.starters[starter].text)
        card = await pending_card(s.page)
        plan, limits = EMAIL_SENTENCES[starter]
        await expect(card.locator(".card-plan .summary-line").first).to_have_text(plan)
        guarantees = card.locator("ul.guarantees > li")
        await expect(guarantees).to_have_count(len(limits))
        for text in limits:
            await expect(guarantees.filter(has_text=text)).to_have_count(1)
        await expect(card.locator("ul.libraries li")).to_have_count(1)
        await expect(card.locator("ul.libraries li")).to_contain_text("Mock email — simulated")
        run = s.page.locator("section.run").last
        # Status once: the head's pill; everything technical under ONE collapsed Details.
        await expect(run.locator(".phase")).to_have_count(1)
        await expect(run.locator(".phase")).to_have_text("Your approval needed")
        details = run.locator("details[data-key=details]")
        await expect(details).to_have_count(1)
        assert await details.get_attribute("open") is None
        assert not await run.get_by_text("Sandbox:", exact=False).first.is_visible()
        text = await card.inner_text()
        assert "emails are sent" not in text.replace("2 emails are sent", "") and "[\"" not in text
        s.clean()


REAL_FILE_SENTENCES = {
    0: ["Will read lines of notes/groceries.txt."],
    1: ["Will read lines of notes/meeting.md.",
        "Will write 1 file: output/summary.txt (content computed when it runs)."],
    2: ["Will append to 1 file: notes/groceries.txt with “milk↵”"],
}


@pytest.mark.soak  # long real-path sweep; CI runs it in the soak tier (00 DEC-2)
@pytest.mark.parametrize("starter", [0, 1, 2])
async def test_real_files_starter_card_summary(tmp_path: Path, starter: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial="real-files") as s:
        await s.send(REAL_FILES.starters[starter].text)
        card = await pending_card(s.page)
        await expect(card.locator(".card-plan .summary-line")).to_have_text(REAL_FILE_SENTENCES[starter])
        await expect(card.locator("ul.libraries li")).to_contain_text("Project files — acts for real")
        # A real library: nothing on the card calls it simulated.
        assert "simulated" not in (await card.inner_text()).lower()
        s.clean()


async def test_run_outcome_sentence_and_one_line_card(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        await s.send(EMAIL.starters[0].text)
        card = await pending_card(s.page)
        await card.get_by_role("button", name="Approve", exact=True).click()
        run = s.page.locator("section.run").last
        await expect(run.locator(".phase")).to_have_text("Completed", timeout=60_000)
        line = run.locator(".card-head .one-line")
        await expect(line).to_have_text(
            "Approved once by you · Mock: would have sent 1 email to bob@example.com: “Hi from clauz3”")
        # Finished cards are one line that expands.
        assert not await run.locator(".card-body").is_visible()
        await run.get_by_role("button", name="Show this run").click()
        await expect(run.locator(".card-body")).to_be_visible()
        await expect(run.locator(".summary-line.outcome")).to_have_text(
            "Mock: would have sent 1 email to bob@example.com: “Hi from clauz3”")
        [record] = await s.runs()
        assert record["summary"]["sentences"] == [
            "Mock: would have sent 1 email to bob@example.com: “Hi from clauz3”"]
        s.clean()


async def test_failed_proof_reads_as_a_sentence_with_the_line_highlighted(tmp_path: Path) -> None:
    from playwright.async_api import expect

    source = EMAIL_IMPORTS + ("@clauz3.guarantee(emails.only([\"ann@example.com\"]))\n"
                              "def main() -> None:\n"
                              "    send_email(\"bob@example.com\", \"Hi\")\n")
    async with real_stack(tmp_path, tutorial=None) as s:
        await s.send(program_prompt(source))
        run = s.page.locator("section.run").last
        await expect(run.locator(".phase")).to_have_text("Did not execute", timeout=60_000)
        sentence = ("This program would send a mock email to bob@example.com (line 8), but the guarantee says "
                    "every email goes to ann@example.com.")
        await run.get_by_role("button", name="Show this run").click()
        await expect(run.locator(".summary-line.refusal")).to_have_text(sentence)
        await expect(run.get_by_text(sentence, exact=True)).to_have_count(1)  # shown once
        marked = run.locator(".card-summary .src-line.marked")
        await expect(marked).to_have_count(1)
        await expect(marked).to_have_attribute("data-line", "8")
        await expect(marked).to_contain_text('send_email("bob@example.com", "Hi")')
        body = await run.inner_text()
        assert "Exit code" not in body and "Sandbox" not in body  # never ran
        await expect(s.page.locator("details.tool .tool-status").last).to_have_text("Refused", timeout=60_000)
        s.clean()


async def test_remember_confirmation_states_its_scope(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        await s.send(EMAIL.starters[2].text)
        card = await pending_card(s.page)
        await card.get_by_role("button", name="More", exact=True).click()  # issue 12: the rest under More
        await card.get_by_role("button", name="Approve and remember").click()
        dialog = s.page.get_by_role("dialog", name="Approve and remember?")
        await expect(dialog).to_be_visible()
        scope = dialog.locator(".remember-scope")
        await expect(scope).to_contain_text("any program in this project whose guarantees are at least as strict")
        await expect(scope).to_contain_text("with any message text")
        for text in EMAIL_SENTENCES[2][1]:
            await expect(scope).to_contain_text(text)
        await dialog.get_by_role("button", name="Cancel").click()
        await expect(dialog).to_be_hidden()
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled()  # nothing decided
        await card.get_by_role("button", name="Approve and remember").click()
        await dialog.get_by_role("button", name="Approve and remember").click()
        await expect(card).to_contain_text("Decision: Approved and remembered", timeout=60_000)
        await s.idle()
        # The next program inside the rule is decided by it, and its one line says which rule.
        await s.send(EMAIL.starters[2].text)
        runs = s.page.locator("section.run")
        await expect(runs).to_have_count(2, timeout=60_000)
        line = runs.last.locator(".card-head .one-line")
        await expect(line).to_have_text(
            "Approved by your rule · Mock: would have sent 1 email to bob@example.com: “Second note”", timeout=60_000)
        await runs.last.get_by_role("button", name="Show this run").click()
        await expect(runs.last.locator(".rule-sentence")).to_have_text(
            "Approved by your rule: every email goes to bob@example.com; at most 1 email is sent; "
            "no address receives two emails.")
        s.clean()


async def test_card_cannot_hide_lookalikes_bidi_long_lists_or_the_agents_id(tmp_path: Path) -> None:
    from playwright.async_api import expect

    many = [f"u{i}@x.io" for i in range(299)]  # a guarantee is at most 4,096 characters
    listed = ", ".join(f'"{a}"' for a in many)
    source = EMAIL_IMPORTS + (f"@clauz3.guarantee(emails.only([{listed}, \"b\u043eb@example.com\"]))\n"
                              "def main() -> None:\n"
                              "    send_email(\"b\u043eb@example.com\", \"pay \u202egnp.exe\")\n")
    async with real_stack(tmp_path, tutorial=None) as s:
        await s.send(program_prompt(source, "VERIFIED_SAFE_no_email_is_sent"))
        card = await pending_card(s.page)
        plan = card.locator(".card-plan .summary-line").first
        await expect(plan).to_contain_text("b[U+043E]b@example.com")
        await expect(plan).to_contain_text("[U+202E]")
        await expect(card.locator(".hiding-warning")).to_contain_text("change the direction of the text")
        await expect(card.locator("ul.guarantees")).to_contain_text("300 addresses")
        items = card.locator("ul.guarantees ol.value-list li")
        await expect(items).to_have_count(300)
        await expect(items.nth(298)).to_have_text("u298@x.io")
        run = s.page.locator("section.run").last
        # The agent's request id appears only under Details, labelled as the agent's.
        assert "VERIFIED_SAFE" not in (await run.inner_text())
        await run.locator("details[data-key=details] > summary").click()
        await expect(run.get_by_text("Request id (chosen by the agent):")).to_be_visible()
        assert "VERIFIED_SAFE" in (await run.locator("details[data-key=details]").inner_text())
        s.clean()


async def test_pending_card_fits_one_and_a_half_phone_screens(tmp_path: Path) -> None:
    async with real_stack(tmp_path) as s:
        await s.page.set_viewport_size(MOBILE)
        await s.send(EMAIL.starters[0].text)
        card = await pending_card(s.page)
        run = s.page.locator("section.run").last
        box = await run.bounding_box()
        assert box is not None and await card.is_visible()
        assert box["height"] <= 1.5 * MOBILE["height"], box
        s.clean()
