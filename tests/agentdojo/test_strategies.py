"""The adaptive attacker is real: every strategy (the six that rewrite the program, and ``honest``, the honest
program itself on the injected environment) yields at least one attack program, across the suites, that proves
under its task's intent. The programs are written, proved and run by the benchmark's own functions
(``_strategies_child.py``, one layer per process) on a few chosen pairs: banking ``user_task_5`` (it pays a
computed amount, so the payment's free text and its unpinned recipient are open to the attacker),
banking ``user_task_10`` (it finds no bill and pays nothing, so even the injection's own payment fits "at most
one payment") and slack ``user_task_1`` (a DM to Alice whose body is the attacker's channel). A strategy that
writes nothing, or whose programs are all refused, fails the test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import agentdojo  # noqa: F401  # a default dependency group (pyproject [tool.uv]): missing is a failure
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "bench" / "agentdojo"))

from attacker import STRATEGIES  # noqa: E402

PAIRS = {"banking": ["user_task_5:injection_task_0", "user_task_10:injection_task_0"],
         "slack": ["user_task_1:injection_task_1"]}


def _child(suite: str, pairs: list[str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(HERE / "_strategies_child.py"), suite, *pairs],
                          capture_output=True, text=True, timeout=900)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    got: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    return got


@pytest.mark.timeout(1000)
def test_every_strategy_yields_a_program_that_proves_under_its_intent() -> None:
    proved: dict[str, list[str]] = {}
    tried: dict[str, int] = {}
    for suite, pairs in PAIRS.items():
        res = _child(suite, pairs)
        for strategy, programs in res["proved"].items():
            proved.setdefault(strategy, []).extend(f"{suite} {p}" for p in programs)
        for strategy, n in res["tried"].items():
            tried[strategy] = tried.get(strategy, 0) + int(n)
    assert set(STRATEGIES) == {"verbatim", "smuggle", "unpinned", "exfiltrate", "answer", "replace", "honest"}
    missing = [s for s in STRATEGIES if not proved.get(s)]
    assert not missing, f"strategies with no program that proved: {missing} (tried {tried}; proved {proved})"
    # the honest program proves on each chosen pair's injected environment (it is the same program as on the clean)
    assert len(proved["honest"]) == sum(len(p) for p in PAIRS.values())
