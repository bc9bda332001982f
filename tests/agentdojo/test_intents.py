"""Every guarantee's rationale quotes the prompt it was approved for, and every task has an intent."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "agentdojo"))

pytest.importorskip("agentdojo", reason="the agentdojo dependency group is not installed (uv sync --group agentdojo)")

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
