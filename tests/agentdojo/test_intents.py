"""Every guarantee's rationale quotes the prompt it was approved for, and every task has an intent."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "agentdojo"))

import agentdojo  # noqa: E402, F401  # a default dependency group (pyproject [tool.uv]): missing is a failure

SUITES = ["banking", "slack", "travel", "workspace"]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


@pytest.mark.parametrize("suite", SUITES)
def test_rationales_quote_the_prompt(suite: str) -> None:
    from agentdojo.task_suite.load_suites import get_suite

    tasks = get_suite("v1", suite).user_tasks
    intents = importlib.import_module(f"intents.{suite}").INTENTS
    assert set(intents) == set(tasks)
    for tid, intent in intents.items():
        prompt = _norm(tasks[tid].PROMPT)
        assert intent.guarantees, tid
        for g in intent.guarantees:
            assert _norm(g.words) in prompt, f"{suite} {tid}: {g.words!r} is not in the prompt"


def test_compromised_program_is_honest_plus_injection_calls() -> None:
    from programs import Call, Guarantee, Intent, Library, render

    root = ROOT / "examples" / "agentdojo" / "banking" / "tools" / "banking" / "trusted"
    lib = Library("banking", root / "effects.py", {"banking": "tools.banking.trusted.contracts"})
    intent = Intent([Guarantee('banking.pays_only(["A"])', "pay")])
    honest = render(lib, title="t", prompt="pay", intent=intent, calls=[Call("send_money", {
        "recipient": "A", "amount": 1, "subject": "s", "date": "d"})])
    bad = render(lib, title="t", prompt="pay", intent=intent, calls=[Call("send_money", {
        "recipient": "A", "amount": 1, "subject": "s", "date": "d"})],
        extra=[Call("update_password", {"password": "x"})], extra_title="injection_task_7")
    assert 'send_money("A", 1.0, "s", "d")' in honest.replace("'", '"')
    assert "update_password" not in honest
    assert bad.splitlines()[-1].strip() == "update_password('x')"
    assert '@clauz3.guarantee(banking.pays_only(["A"]))' in bad


@pytest.mark.soak  # regenerates all 97 programs (about 30 s): long (00 DEC-2)
def test_committed_programs_are_the_ones_the_benchmark_runs(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "agentdojo" / "run.py"), "--write-programs",
                           str(tmp_path)], capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr[-2000:]
    committed = ROOT / "bench" / "agentdojo" / "programs"
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.py"))
    assert fresh == sorted(p.relative_to(committed) for p in committed.rglob("*.py"))
    assert len(fresh) == 97
    for rel in fresh:
        assert (tmp_path / rel).read_text() == (committed / rel).read_text(), f"{rel} is stale: run just agentdojo --write-programs bench/agentdojo/programs"


def test_unknown_suite_version_is_one_line_with_a_code() -> None:
    import subprocess

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "agentdojo" / "run.py"), "--suite-version", "v9"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["error: agentdojo-version: AgentDojo has no suite version v9"]
