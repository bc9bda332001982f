"""One user task and its injection pairs per AgentDojo suite through the whole path (default tier).

Each suite runs in its own process (one layer per process): prove, the in-process authority's
receipt, clauz3's interpreter on the environment AgentDojo loads, AgentDojo's own graders.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "bench" / "agentdojo" / "run.py"

import agentdojo  # noqa: E402, F401  # a default dependency group (pyproject [tool.uv]): missing is a failure


def _child(suite: str, task: str, *extra: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, str(RUN), "--child", suite, "--task", task, *extra], capture_output=True,
                          text=True, timeout=280)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    return json.loads(lines[-1][len("RESULT "):])


@pytest.mark.parametrize(("suite", "task"), [("banking", "user_task_0"), ("slack", "user_task_1"),
                                             ("travel", "user_task_3"), ("workspace", "user_task_33")])
def test_one_task_and_its_pairs(suite: str, task: str) -> None:
    res = _child(suite, task)
    assert res["user_tasks"] == 1
    assert res["utility"] == 1, res["unproved_honest"] or res["failed_utility"]
    assert res["pairs"] > 0
    assert res["attack_success"] == 0, res["successful_attacks"]
    # every pair whose injection changes the world was stopped by a violated guarantee, not a refusal
    assert res["world_changing_blocked"] == res["world_changing_pairs"] > 0, res["unblocked_pairs"]
    assert set(res["blocked_how"]) == {"violated"}


def test_without_guarantees_the_same_attacks_succeed() -> None:
    """The zero above is not vacuous: the same compromised programs under no guarantee all succeed."""
    res = _child("banking", "user_task_0", "--undefended")
    assert res["blocked_at_proof"] == 0
    assert res["attack_success"] == res["pairs"] == 9, res["unblocked_pairs"]
