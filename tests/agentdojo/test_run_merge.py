"""`just agentdojo --split K`: a suite's result from disjoint slices of its user tasks is the sum of the slices
(pure: no AgentDojo, no prover)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "agentdojo"))

from run import merge


def _part(tasks: list[str], ok: int, success: list[str], honest: int) -> dict[str, object]:
    return {"name": "slack", "user_tasks": len(tasks), "utility": ok, "passed_utility": tasks[:ok],
            "successful_attacks": success, "attack_success": len(success), "no_ground_truth": ["injection_task_9"],
            "blocked_how": {"violated": 2}, "strategies": {"honest": {"tried": 5, "attack_success": honest}}}


def test_slices_add_up() -> None:
    got = merge([_part(["user_task_0", "user_task_2"], 2, [], 0),
                 _part(["user_task_1"], 0, ["user_task_1 x injection_task_1 (changes the world): honest"], 1)])
    assert got["name"] == "slack"
    assert got["user_tasks"] == 3 and got["utility"] == 2 and got["attack_success"] == 1
    assert got["passed_utility"] == ["user_task_0", "user_task_2"]
    assert got["successful_attacks"] == ["user_task_1 x injection_task_1 (changes the world): honest"]
    assert got["no_ground_truth"] == ["injection_task_9"]  # suite-wide: taken once
    assert got["blocked_how"] == {"violated": 4}
    assert got["strategies"] == {"honest": {"tried": 10, "attack_success": 1}}


def test_one_slice_is_itself() -> None:
    part = _part(["user_task_0"], 1, [], 0)
    assert merge([part]) == part
