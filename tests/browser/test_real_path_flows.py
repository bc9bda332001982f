"""Every flow a person sees, each on the real path (issue 13): the real `clauz3 ui demo` launcher,
service, demo agent, MCP bridge, prover, run worker and approval authority, in Debian's Chromium.

No stand-in bridge, no patched module: the programs the demo submits are proved and, once approved,
executed; the state asserted is read back from the service's API, the run ledger's records and the
project's files. A slow step is a trusted test library effect (tests/browser/libraries/gate) that
blocks on a FIFO the test controls, never a sleep.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import Any

import pytest
from browser_harness import needs_chromium
from real_stack import Stack, real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

GATE_IMPORTS = ("import clauz3\n"
                "from tools.gate.trusted import contracts as gate\n"
                "from tools.gate.trusted.effects import reading, step, step_after_gate\n\n\n")
TWO_STEPS = GATE_IMPORTS + ("@clauz3.guarantee(gate.steps_at_most(count=1))\n"
                            "@clauz3.guarantee(gate.gated_steps_at_most(count=1))\n"
                            "def main() -> None:\n"
                            "    step(\"first\")\n"
                            "    step_after_gate(\"second\")\n")
REFUTED = GATE_IMPORTS + ("@clauz3.guarantee(gate.steps_at_most(count=1))\n"
                          "def main() -> None:\n"
                          "    n = reading()\n"
                          "    step(\"first\")\n"
                          "    if n > 3:\n"
                          "        step(\"second\")\n")


def program_prompt(source: str, request_id: str | None = None) -> str:
    head = f"Run this program as request {request_id}:" if request_id else "Run this program:"
    return f"{head}\n```python\n{source}```"


def gate_dir(project: Path) -> Path:
    folder = project / "gate"
    folder.mkdir(exist_ok=True)
    if not (folder / "open").exists():
        os.mkfifo(folder / "open", 0o600)
    return folder


def marks(project: Path) -> list[str]:
    path = project / "gate" / "marks.txt"
    return path.read_text().splitlines() if path.exists() else []


def gate_has_a_reader(project: Path) -> bool:
    """True while some process has the gate FIFO open for reading (a gated step is waiting). The probe
    writes nothing, so it never opens the gate."""
    try:
        fd = os.open(project / "gate" / "open", os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            return False
        raise
    os.close(fd)
    return True


async def approve(s: Stack, index: int = -1) -> None:
    from playwright.async_api import expect

    card = s.page.locator("section.approval").nth(index)
    button = card.get_by_role("button", name="Approve", exact=True)
    await expect(button).to_be_enabled(timeout=60_000)
    await button.click()


async def test_failed_proof_shows_its_counterexample_on_the_card(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial=None, libraries=["gate"]) as s:
        gate_dir(s.project)
        await s.send(program_prompt(REFUTED))
        run = s.page.locator("section.run").last
        await expect(run.locator(".phase")).to_have_text("Did not execute", timeout=60_000)
        # Issue 22: the reason in words, never the record's code.
        await expect(run).to_contain_text("A guarantee could not be proved")
        await expect(run).not_to_contain_text("proof_failed")
        # The counterexample is what a person sees on the card, not only inside its details.
        shown = run.get_by_text(re.compile(r"reading\(\) at line 8 return(s|ed) 4")).filter(visible=True)
        await expect(shown.first).to_be_visible(timeout=60_000)
        await expect(run).to_contain_text("reading() at line 8 returned 4")  # and the run record's message
        await expect(s.page.locator("section.approval")).to_be_hidden()
        await s.idle()
        [record] = await s.runs()
        assert record["phase"] == "refused" and record["reason"] == "proof_failed"
        assert marks(s.project) == []
        s.clean()


async def test_stop_during_execution_keeps_the_first_effect_and_never_reruns(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial=None, libraries=["gate"]) as s:
        gate_dir(s.project)
        prompt = program_prompt(TWO_STEPS, "gate-stop-0001")
        await s.send(prompt)
        await approve(s)
        run = s.page.locator("section.run").last
        await expect(run.locator(".phase")).to_have_text("Executing approved action", timeout=60_000)
        # The first effect has run and the second waits at the gate: only then does the person press Stop.
        waiting = s.project / "gate" / "waiting.txt"
        # Each probe wakes the waiting step, which reads EOF and opens the FIFO again: a probe right after
        # another can land in that gap on a loaded machine, so the wait ends on the first probe that sees it.
        gated = False
        for _ in range(2400):  # up to 120 s: a loaded 2-core machine starts the worker slowly
            if waiting.exists() and gate_has_a_reader(s.project):
                gated = True
                break
            await s.page.wait_for_timeout(50)
        assert gated and marks(s.project) == ["first"] and waiting.read_text() == "second\n"
        await s.page.get_by_role("button", name="Stop", exact=True).click()
        await expect(run.locator(".phase")).to_have_text("Stopped", timeout=60_000)
        await expect(run).to_contain_text("Executed partially: yes", timeout=60_000)
        said = run.get_by_text("The run stopped early", exact=False).filter(visible=True)
        await expect(said.first).to_be_visible()  # in the card's own words, without opening it
        await s.idle()
        [record] = await s.runs()
        assert record["phase"] == "cancelled" and record["executed_partially"] is True
        assert not gate_has_a_reader(s.project) and marks(s.project) == ["first"]

        # Retry: the same request id and program return the recorded outcome; nothing runs again.
        # The first turn's last reply is the agent's "Submitting your program…"; the retry's turn answers
        # (in one or two bubbles, as the agent streams) with the recorded outcome.
        replies = s.page.locator(".bubble.assistant")
        before = await replies.count()
        await expect(replies.last).not_to_contain_text("The run was stopped")
        await s.send(prompt)
        await expect(replies.last).to_contain_text("The run was stopped after it had started executing",
                                                   timeout=60_000)
        assert await replies.count() > before
        await s.idle()
        assert await s.page.locator("section.approval").count() == 1
        assert marks(s.project) == ["first"] and not gate_has_a_reader(s.project)
        runs = await s.runs()
        assert [r["request_id"] for r in runs] == ["gate-stop-0001"]
        assert runs[0]["phase"] == "cancelled" and runs[0]["executed_partially"] is True
        s.clean()



# -- the email tutorial's flows --------------------------------------------------------------------

async def pending_card(s: Stack, text: str) -> Any:
    """Send ``text``; return the last approval card once its Approve button is enabled."""
    from playwright.async_api import expect

    await s.send(text)
    card = s.page.locator("section.approval").last
    await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
    return card


async def decide(s: Stack, card: Any, label: str, feedback: str | None = None) -> dict[str, Any]:
    """Press ``label`` on ``card`` (with ``feedback``); return the run record once the turn has ended."""
    from playwright.async_api import expect

    if feedback:
        await card.get_by_role("textbox", name="Feedback for the agent (optional)").fill(feedback)
    if label not in ("Approve", "Reject"):  # issue 12: the other decisions are under More
        await card.get_by_role("button", name="More", exact=True).click()
    await card.get_by_role("button", name=label, exact=True).click()
    if label.endswith("and remember"):  # the page states the rule's reach and asks first
        dialog = s.page.get_by_role("dialog")
        await expect(dialog).to_contain_text("You can disable the rule later in Approvals.")
        await dialog.get_by_role("button", name=label, exact=True).click()
    await expect(card.get_by_role("button", name="Approve", exact=True)).to_have_count(0, timeout=60_000)
    await s.idle()
    return (await s.runs())[-1]


async def test_approve_runs_the_proved_program_once(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        card = await pending_card(s, EMAIL.starters[0].text)
        record = await decide(s, card, "Approve")
        await expect(card).to_contain_text("Decision: Approved once")
        run = s.page.locator("section.run").last
        await expect(run.locator(".phase")).to_have_text("Completed")
        await expect(s.page.locator(".bubble.assistant").last).to_contain_text(
            "Done: the program ran once after approval (exit code 0).")
        assert record["phase"] == "completed" and record["exit_code"] == 0
        assert record["approval"]["decision"] == "approved_once" and record["approval"]["decided_by"] == "human"
        assert record["executed_partially"] is False
        s.clean()


@pytest.mark.parametrize(("label", "decision", "shown", "feedback", "replied"), [
    ("Reject", "rejected", "Rejected", "wrong person", "you rejected this program"),
    ("Reject contract", "rejected_contract", "Contract rejected", None, "you rejected its contract"),
    ("Need more info", "request_more", "More information requested", "why carol?", "you asked for more information"),
], ids=["reject", "reject_contract", "need_more_info"])
async def test_a_refusal_reaches_the_agent_and_nothing_runs(tmp_path: Path, label: str, decision: str, shown: str,
                                                            feedback: str | None, replied: str) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        card = await pending_card(s, EMAIL.starters[1].text)
        record = await decide(s, card, label, feedback)
        await expect(card).to_contain_text(f"Decision: {shown}")
        await expect(s.page.locator("section.run").last.locator(".phase")).to_have_text("Did not execute")
        assert record["phase"] == "refused" and record["reason"] == "denied"
        assert record["approval"]["decision"] == decision and record["approval"]["feedback"] == feedback
        assert record["executed_partially"] is False
        reply = s.page.locator(".bubble.assistant").last
        await expect(reply).to_contain_text("It wasn't approved, so nothing ran")
        await expect(reply).to_contain_text(replied)  # issue 12: each decision leads to its own reply
        if feedback:
            await expect(card).to_contain_text(f"Feedback: {feedback}")
            await expect(reply).to_contain_text(feedback)
        s.clean()


async def test_approve_and_remember_decides_the_next_matching_program_without_a_card(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        card = await pending_card(s, EMAIL.starters[2].text)
        first = await decide(s, card, "Approve and remember")
        await expect(card).to_contain_text("Decision: Approved and remembered")
        assert first["phase"] == "completed" and first["approval"]["decision"] == "approved_remember"

        await s.send(EMAIL.starters[2].text)  # the same program again: the remembered rule decides
        await expect(s.page.locator("section.run")).to_have_count(2, timeout=60_000)
        await expect(s.page.locator("section.run").last.locator(".phase")).to_have_text("Completed", timeout=60_000)
        await s.idle()
        runs = await s.runs()
        assert len(runs) == 2 and runs[1]["request_id"] != first["request_id"]
        second = runs[1]
        assert second["phase"] == "completed", second
        assert second["approval"]["decision"] == "auto_approved" and second["approval"]["decided_by"] == "profile"
        card = s.page.locator(f'section.approval[data-request-id="{second["request_id"]}"]')
        await expect(card).to_contain_text("Decision: Approved automatically")
        await expect(card).to_contain_text("Approved by your rule")
        # No one was asked: the card never offered a decision.
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
        await expect(s.page.locator("section.run").last.locator(".phase")).to_have_text("Completed")
        s.clean()


async def test_reject_and_remember_refuses_the_next_matching_program_without_a_card(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        card = await pending_card(s, EMAIL.starters[0].text)
        first = await decide(s, card, "Reject and remember")
        await expect(card).to_contain_text("Decision: Rejected")
        assert first["phase"] == "refused" and first["approval"]["decision"] == "rejected"

        await s.send(EMAIL.starters[0].text)
        await expect(s.page.locator("section.run")).to_have_count(2, timeout=60_000)
        await expect(s.page.locator("section.run").last.locator(".phase")).to_have_text("Did not execute",
                                                                                         timeout=60_000)
        await s.idle()
        second = (await s.runs())[-1]
        assert second["request_id"] != first["request_id"]
        assert second["phase"] == "refused" and second["reason"] == "denied"
        assert second["approval"]["decision"] == "auto_rejected" and second["approval"]["decided_by"] == "profile"
        card = s.page.locator(f'section.approval[data-request-id="{second["request_id"]}"]')
        await expect(card).to_contain_text("Decision: Rejected automatically")
        await expect(card).to_contain_text("Rejected by your rule")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
        s.clean()


async def test_reload_with_a_pending_card_restores_it_and_it_still_decides(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await pending_card(s, EMAIL.starters[0].text)
        await page.reload()
        await expect(page.locator(".bubble.user .user-text")).to_have_text(EMAIL.starters[0].text, timeout=60_000)
        card = page.locator("section.approval")
        await expect(card).to_have_count(1)
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await expect(page.get_by_role("status", name="Activity")).to_have_text("Waiting for your approval")
        record = await decide(s, card, "Approve")
        await expect(page.locator("section.run").last.locator(".phase")).to_have_text("Completed")
        assert record["phase"] == "completed" and record["approval"]["decision"] == "approved_once"
        s.clean()


async def test_stop_during_a_turn_keeps_the_conversation(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await s.send("count to 200 slowly")
        activity = page.get_by_role("status", name="Activity")
        await expect(activity).to_contain_text("Demo is working…", timeout=60_000)
        await expect(page.locator(".bubble.assistant").last).to_contain_text("3", timeout=60_000)
        stop = page.get_by_role("button", name="Stop", exact=True)
        await stop.click()
        await expect(page.locator(".turn-note").last).to_have_text("Stopped", timeout=60_000)
        await expect(activity).to_be_hidden()
        text = await page.locator(".bubble.assistant").last.inner_text()
        assert "200" not in text.split()
        replies = page.locator(".bubble.assistant")
        before = await replies.count()
        await s.send("count to 3")
        await expect(replies).to_have_count(before + 1, timeout=60_000)
        await expect(replies.last.locator(".md")).to_have_text("1\n2\n3", timeout=60_000)
        await s.idle()
        s.clean()


HARD = GATE_IMPORTS + ("@clauz3.guarantee(gate.steps_at_most(count=1))\n"
                       "def main() -> None:\n"
                       "    a = reading()\n"
                       "    b = reading()\n"
                       "    c = reading()\n"
                       "    step(\"x\")\n"
                       "    if a > 0 and b > 0 and c > 0 and a * a * a + b * b * b == c * c * c:\n"
                       "        step(\"y\")\n")


async def test_stop_during_a_proof_cancels_before_any_card(tmp_path: Path) -> None:
    """The proof asks Z3 to settle a case of Fermat's last theorem (a³ + b³ = c³), which it cannot do
    before its per-obligation limit: the run is certainly still proving when Stop is pressed."""
    from playwright.async_api import expect

    async with real_stack(tmp_path, tutorial=None, libraries=["gate"]) as s:
        gate_dir(s.project)
        await s.send(program_prompt(HARD))
        run = s.page.locator("section.run").last
        await expect(run.locator(".phase")).to_have_text("Proving guarantees", timeout=60_000)
        await s.page.get_by_role("button", name="Stop", exact=True).click()
        await expect(run.locator(".phase")).to_have_text("Stopped", timeout=60_000)
        await s.idle()
        [record] = await s.runs()
        assert record["phase"] == "cancelled" and record["executed_partially"] is False
        assert record["approval"] is None
        await expect(s.page.locator("section.approval")).to_be_hidden()
        assert marks(s.project) == []
        # The next program is proved and refused on its own merits: the stopped proof holds nothing up.
        await s.send(program_prompt(REFUTED))
        await expect(s.page.locator("section.run").last.locator(".phase")).to_have_text("Did not execute",
                                                                                         timeout=60_000)
        await s.idle()
        assert [r["reason"] for r in await s.runs()] == ["stopped", "proof_failed"]
        s.clean()
