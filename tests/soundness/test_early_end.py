"""Issue 10 family 8: a run that ends early after effects must say how its end-state guarantees stood.

A proved ``F.final[...] == v`` guarantee speaks about runs that finish. A trusted function that raises,
or a step budget that runs out mid-loop, ends a run with the fluent state wherever it was; the run
record and the card's outcome sentence then say, per end-state guarantee, held or NOT held — never
just "proved". Real checker, real prover, real interpreter and monitor, a hostile trusted layer in its
own process (TL-6: one layer per process).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

EFFECTS = '''
"""A hostile house: the bell raises, whatever happened before it."""

import clauz3
import clauz3.fluent
from clauz3.fluent import fluent

DoorLocked = fluent("door_locked", key=str, value=bool, initial=True)


@clauz3.trusted
@clauz3.mock
@clauz3.fluent.effect(lambda door: DoorLocked.set(door, False))
def unlock_door(door: str) -> None:
    """Unlock a door (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.fluent.effect(lambda door: DoorLocked.set(door, True))
def lock_door(door: str) -> None:
    """Lock a door (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def wait_for(door: str, seconds: int) -> None:
    """Wait at a door for a visitor (simulated: it only sleeps)."""
    import time

    time.sleep(seconds)


@clauz3.trusted
@clauz3.mock
def ring_bell(door: str) -> None:
    """Ring the bell at a door: this one is jammed and always raises."""
    raise RuntimeError("bell jammed")
'''

CONTRACTS = '''
"""Contracts over the hostile house."""

from tools.house.trusted.effects import DoorLocked

from clauz3.spec import ContractSpec, contract


@contract(description="door {door} is locked when the program ends")
def door_locked_at_end(door: str) -> ContractSpec:
    return DoorLocked.final[door] == True  # noqa: E712 (builds a spec, not a test)


@contract(description="door {door} is locked when the program ends, read over every door")
def locked_by_key(door: str) -> ContractSpec:
    return DoorLocked.final.all(lambda item: item.key != door or item.value == True)  # noqa: E712
'''

YAML = """schema_version: 1
name: house
title: Hostile house
summary: Doors and a jammed bell, for early-end tests.
"""

RUNNER = '''
import io, json, sys
from pathlib import Path

from clauz3.interp import execute
from clauz3.language import check_source
from clauz3.language.layer import load_layer
from clauz3.prover.api import prove
from clauz3.runs.records import RunRecord
from clauz3.runs.worker import _outcome_summary

root = Path(sys.argv[1])
layer = load_layer([root / "tools" / "house" / "trusted"], [root])
jobs = json.loads(sys.stdin.read())
out = {}
for name, job in jobs.items():
    program = check_source(job["source"].encode(), name + ".py", layer, "main", [])
    proof = prove(program)
    runs = []
    for budget in job["budgets"]:
        run = execute(program, layer.effects, stdout=io.StringIO(), write_report=False, step_budget=budget)
        summary = _outcome_summary(program, run)
        record = RunRecord(request_id="r-" + name, summary=summary, executed_partially=True)
        record.end(run.outcome if run.outcome != "completed" else None, run.error)
        runs.append({"budget": budget, "outcome": run.outcome, "error": run.error,
                     "ended_early": run.ended_early, "end_state": run.end_state,
                     "calls": [r.short for r in run.trace], "record": record.to_json()})
    out[name] = {"status": proof.status, "runs": runs}
print(json.dumps(out))
'''

HEADER = """import clauz3
from tools.house.trusted import contracts as house
from tools.house.trusted.effects import lock_door, ring_bell, unlock_door

"""

PROGRAMS = {
    # The bell raises after the door was unlocked and before it was locked again.
    "raise_while_unlocked": """
@clauz3.guarantee(house.door_locked_at_end("front"))
def main() -> None:
    unlock_door("front")
    ring_bell("front")
    lock_door("front")
""",
    # The bell raises after the door was locked again: the end state is still the promised one.
    "raise_after_relock": """
@clauz3.guarantee(house.door_locked_at_end("front"))
def main() -> None:
    unlock_door("front")
    lock_door("front")
    ring_bell("front")
""",
    # The predicate reads the key: a door never set cannot be judged after an early end (never "held").
    "raise_before_any_door": """
@clauz3.guarantee(house.locked_by_key("front"))
def main() -> None:
    ring_bell("front")
    unlock_door("front")
    lock_door("front")
""",
    # A loop that unlocks and relocks; the step budget runs out somewhere inside it.
    "budget_mid_loop": """
@clauz3.guarantee(house.door_locked_at_end("front"))
def main() -> None:
    for visitor in ["ann", "bob", "cy", "dee", "eve", "fay"]:
        unlock_door("front")
        lock_door("front")
""",
}

NAME = 'house.door_locked_at_end(door="front")'


def write_layer(root: Path) -> Path:
    """The hostile house library under ``root/tools/house`` (``root`` is its import root); its trusted root."""
    pkg = root / "tools" / "house"
    (pkg / "trusted").mkdir(parents=True)
    (pkg / "clauz3.yaml").write_text(YAML)
    (pkg / "trusted" / "__init__.py").write_text('"""Hostile house (test layer)."""\n')
    (pkg / "trusted" / "effects.py").write_text(textwrap.dedent(EFFECTS))
    (pkg / "trusted" / "contracts.py").write_text(textwrap.dedent(CONTRACTS))
    return pkg / "trusted"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("house")
    write_layer(root)
    (root / "runner.py").write_text(textwrap.dedent(RUNNER))
    jobs = {name: {"source": HEADER + body, "budgets": [1_000_000] if name != "budget_mid_loop" else
                   list(range(1, 80))} for name, body in PROGRAMS.items()}
    env = {**os.environ, "CLAUZ3_HOME": str(root / "home"), "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, str(root / "runner.py"), str(root)], input=json.dumps(jobs),
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _only(results: dict[str, Any], name: str) -> dict[str, Any]:
    entry = results[name]
    assert entry["status"] == "proved", entry  # the guarantee was proved: the early end is outside the proof
    (run,) = entry["runs"]
    return run


def test_trusted_raise_after_unlock_reports_broken_end_state(results: dict[str, Any]) -> None:
    run = _only(results, "raise_while_unlocked")
    assert run["outcome"] == "runtime_error"
    assert run["calls"] == ["unlock_door", "ring_bell"]
    assert run["ended_early"] == "trusted_function_raised"
    assert [(e["guarantee"], e["held"]) for e in run["end_state"]] == [(NAME, False)]
    record = run["record"]
    assert record["ended_early"] == "trusted_function_raised"
    assert record["end_state"] == [{"guarantee": NAME, "held": False}]
    assert record["summary"]["sentences"][0] == (
        f"The run stopped early (a library function raised an error): {NAME} did NOT hold at the end.")


def test_trusted_raise_after_relock_reports_still_held(results: dict[str, Any]) -> None:
    run = _only(results, "raise_after_relock")
    assert run["calls"] == ["unlock_door", "lock_door", "ring_bell"]
    assert run["end_state"][0]["held"] is True
    assert run["record"]["summary"]["sentences"][0] == (
        f"The run stopped early (a library function raised an error): {NAME} still held at the end.")


def test_a_key_reading_predicate_on_a_never_set_key_cannot_be_told(results: dict[str, Any]) -> None:
    run = _only(results, "raise_before_any_door")
    assert run["calls"] == ["ring_bell"]
    name = 'house.locked_by_key(door="front")'
    assert run["record"]["end_state"] == [{"guarantee": name, "held": None}]
    assert run["record"]["summary"]["sentences"][0] == (
        f"The run stopped early (a library function raised an error): whether {name} held at the end cannot be told.")


def test_step_budget_mid_loop_judges_the_state_reached(results: dict[str, Any]) -> None:
    entry = results["budget_mid_loop"]
    assert entry["status"] == "proved"
    early = [r for r in entry["runs"] if r["outcome"] != "completed"]
    assert early, "no budget ended the run early"
    seen = set()
    for run in early:
        assert run["ended_early"] == "step_budget"
        (state,) = run["end_state"]
        # The door is unlocked exactly when the last call made was an unlock.
        unlocked = bool(run["calls"]) and run["calls"][-1] == "unlock_door"
        assert state["held"] is (not unlocked), run
        word = "did NOT hold" if unlocked else "still held"
        assert run["record"]["summary"]["sentences"][0] == (
            f"The run stopped early (the step budget ran out): {NAME} {word} at the end.")
        assert run["record"]["end_state"] == [{"guarantee": NAME, "held": not unlocked}]
        seen.add(unlocked)
    assert seen == {True, False}, "the budgets never stopped the loop both between and after a relock"


def test_finished_runs_say_nothing_about_an_early_end(results: dict[str, Any]) -> None:
    completed = [r for r in results["budget_mid_loop"]["runs"] if r["outcome"] == "completed"]
    assert completed, "no budget was large enough to finish the loop"
    for run in completed:
        assert run["ended_early"] is None and run["end_state"] == []
        assert run["record"]["ended_early"] is None
        assert not any("stopped early" in s for s in run["record"]["summary"]["sentences"])


HOME = Path(__file__).resolve().parents[2] / "examples" / "home-automation"


def _card_guarantees(case: str) -> list[str]:
    """The card's guarantee sentences for one home-automation case, built as the authority builds them."""
    from clauz3.approvals.layerscan import bind_guarantee, program_imports, scan_layer
    from clauz3.approvals.presentation import build_summary
    from clauz3.approvals.requests import ApprovalRequest, Sandbox

    program = (HOME / "cases" / case).read_text()
    roots = (str(HOME / "tools" / "home" / "trusted"),)
    scan = scan_layer(roots, (str(HOME),))
    _, names = program_imports(program)
    # The decorator arguments as written, as the request carries them.
    guarantees = tuple(m.group(1) for m in re.finditer(r"@clauz3\.guarantee\((.+)\)\n", program))
    request = ApprovalRequest(
        request_id="r-card", program=program, program_sha256="0" * 64, source_name=case, target="main",
        trusted_roots=roots, import_roots=(str(HOME),), guarantees=guarantees, coverage=(), proofs=(),
        execution_timeout_seconds=60, sandbox=Sandbox("none", "test", (), ()))
    bound = [bind_guarantee(g, names, scan) for g in guarantees]
    return [g["text"] for g in build_summary(request, scan, bound)["guarantees"]]


def test_card_says_end_state_guarantees_are_for_runs_that_finish() -> None:
    assert _card_guarantees("door_locked_at_end_pass.py") == ["When the program finishes, door garage is locked."]
    assert _card_guarantees("all_doors_locked_at_end_pass.py") == [
        "When the program finishes, every door is locked.", "Only doors front are unlocked."]


def test_card_leaves_other_guarantees_alone() -> None:
    texts = _card_guarantees("never_unlock_door_pass.py")
    assert texts == ["Door safe-room is never unlocked."]


# ----------------------------------------------------------------------------- killed from outside

KILLED = HEADER.replace("ring_bell, unlock_door", "ring_bell, unlock_door, wait_for") + """
@clauz3.guarantee(house.door_locked_at_end("front"))
def main() -> None:
    unlock_door("front")
    wait_for("front", 60)
    lock_door("front")
"""


def _supervised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> tuple[Any, Any]:
    from clauz3.approvals.mock import MockApprovalService
    from clauz3.runs.supervisor import RunConfig, Supervisor

    project = tmp_path / "proj"
    trusted = write_layer(project)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    monkeypatch.setenv("CLAUZ3_PROOF_CACHE", "0")
    svc = MockApprovalService(data, project)
    svc.__enter__()
    config = RunConfig(source=KILLED, project=project, trusted_roots=[str(trusted)], import_roots=[str(project)],
                       service_url=svc.url, submission_token=svc.token, verify_key=svc.verify_key.text,
                       data_dir=data, use_cache=False, **kw)
    return svc, Supervisor(config)


def _run_interrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, act: str | None) -> dict[str, Any]:
    """Run KILLED under a real supervisor; once execution started, ``act`` it: ``stop`` (the person's
    Stop), ``kill`` (SIGKILL to the worker this supervisor started), or None (the 1 s deadline ends it)."""
    svc, sup = _supervised(tmp_path, monkeypatch, execution_timeout_seconds=1 if act is None else 120)

    def interrupt() -> None:
        for _ in range(1200):
            if sup.claimed and sup._proc is not None:
                if act == "stop":
                    sup.cancel("stopped")
                else:
                    os.kill(sup._proc.pid, signal.SIGKILL)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=interrupt) if act is not None else None
    if thread is not None:
        thread.start()
    try:
        result = sup.run()
    finally:
        if thread is not None:
            thread.join()
        svc.__exit__(None, None, None)
    return result.record.to_json()


@pytest.mark.parametrize(("act", "reason", "why"), [
    (None, "execution_timeout", "the time limit ran out"),
    ("stop", "stopped", "it was stopped"),
    ("kill", "worker_lost", "the worker ended without reporting"),
])
def test_a_run_ended_from_outside_says_the_end_state_cannot_be_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, act: str | None, reason: str, why: str) -> None:
    record = _run_interrupted(tmp_path, monkeypatch, act)
    assert record["reason"] == reason and record["executed_partially"] is True, record
    assert record["ended_early"] == reason
    assert record["end_state"] == [{"guarantee": NAME, "held": None}]
    assert record["summary"]["sentences"][0] == (
        f"The run stopped early ({why}): whether {NAME} held at the end cannot be told.")
