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
from pathlib import Path

from browser_harness import needs_chromium
from real_stack import Stack, real_stack

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
        await expect(run).to_contain_text("proof_failed")
        await expect(run).to_contain_text("reading() at line 8 returned 4", timeout=10_000)
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
        await expect(run.locator(".phase")).to_have_text("Executing approved action", timeout=30_000)
        # The first effect has run and the second waits at the gate: only then does the person press Stop.
        waiting = s.project / "gate" / "waiting.txt"
        for _ in range(600):
            if waiting.exists() and gate_has_a_reader(s.project):
                break
            await s.page.wait_for_timeout(50)
        assert marks(s.project) == ["first"] and waiting.read_text() == "second\n" and gate_has_a_reader(s.project)
        await s.page.get_by_role("button", name="Stop", exact=True).click()
        await expect(run.locator(".phase")).to_have_text("Stopped", timeout=30_000)
        await expect(run).to_contain_text("Executed partially: yes", timeout=10_000)
        await s.idle()
        [record] = await s.runs()
        assert record["phase"] == "cancelled" and record["executed_partially"] is True
        assert not gate_has_a_reader(s.project) and marks(s.project) == ["first"]

        # Retry: the same request id and program return the recorded outcome; nothing runs again.
        await s.send(prompt)
        await s.idle()
        assert await s.page.locator("section.approval").count() == 1
        assert marks(s.project) == ["first"] and not gate_has_a_reader(s.project)
        runs = await s.runs()
        assert [r["request_id"] for r in runs] == ["gate-stop-0001"]
        assert runs[0]["phase"] == "cancelled" and runs[0]["executed_partially"] is True
        s.clean()

