"""The honest programs: which are hand-written (they compute from what they read), that each carries its intent's
guarantees, and the canned-answer count the table prints, taken from the programs themselves."""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "agentdojo"))

import agentdojo  # noqa: E402, F401  # a default dependency group (pyproject [tool.uv]): missing is a failure
from programs import HAND_WRITTEN, canned, hand_written  # noqa: E402

PROGRAMS = ROOT / "bench" / "agentdojo" / "programs"
# Suites whose every honest program is hand-written (issue 21 converts them suite by suite).
CONVERTED = ["banking", "travel"]
# Tasks of suites not yet wholly converted that must stay hand-written.
HAND_WRITTEN_TASKS = {"slack": ["user_task_1", "user_task_2", "user_task_10", "user_task_13", "user_task_14",
                                "user_task_17", "user_task_18"]}


def _guarantees(source: str) -> list[tuple[str, str]]:
    """(expression, quoted words) of each @clauz3.guarantee of a program, in order."""
    return [(expr, ast.literal_eval(words))
            for expr, words in re.findall(r"^@clauz3\.guarantee\((.*)\)  # (.*)$", source, re.M)]


def test_every_task_of_a_converted_suite_has_a_hand_written_program() -> None:
    from agentdojo.task_suite.load_suites import get_suite

    for suite in CONVERTED:
        for tid in get_suite("v1", suite).user_tasks:
            assert hand_written(PROGRAMS / suite, tid) is not None, \
                f"{suite} {tid}: no hand-written program (first line {HAND_WRITTEN!r})"


def test_listed_tasks_have_a_hand_written_program() -> None:
    for suite, tasks in HAND_WRITTEN_TASKS.items():
        for tid in tasks:
            assert hand_written(PROGRAMS / suite, tid) is not None, f"{suite} {tid}: no hand-written program"


# Tasks of suites not yet wholly converted whose honest program must be hand-written (issue 21, task by task).
CONVERTED_TASKS = {"workspace": [f"user_task_{i}" for i in range(40) if i not in (18, 25, 33, 34)]}


def test_every_converted_task_has_a_hand_written_program() -> None:
    for suite, tids in CONVERTED_TASKS.items():
        for tid in tids:
            assert hand_written(PROGRAMS / suite, tid) is not None, \
                f"{suite} {tid}: no hand-written program (first line {HAND_WRITTEN!r})"


@pytest.mark.parametrize("suite", ["banking", "slack", "travel", "workspace"])
def test_hand_written_programs_carry_their_intent_and_compute_their_answer(suite: str) -> None:
    from agentdojo.task_suite.load_suites import get_suite

    tasks = get_suite("v1", suite).user_tasks
    intents = importlib.import_module(f"intents.{suite}").INTENTS
    for tid, task in tasks.items():
        source = hand_written(PROGRAMS / suite, tid)
        if source is None:
            continue
        intent = intents[tid]
        assert intent.answer is None, f"{suite} {tid}: a hand-written program computes its answer"
        assert _guarantees(source) == [(g.expression, g.words) for g in intent.guarantees], tid
        # it computes: no literal holds AgentDojo's expected answer, and what it prints is not all literal
        assert not canned(source, [str(getattr(task, "GROUND_TRUTH_OUTPUT", "") or "")]), f"{suite} {tid} is canned"
        assert "def main() -> None:" in source


def test_a_rendered_oracle_is_counted_canned_where_it_prints_an_answer() -> None:
    """The oracle the renderer writes for a task (its ground-truth calls, AgentDojo's expected answer printed, as
    ``SuiteRun.program`` does for a task without a hand-written program) is canned; the task's own program is not."""
    from agentdojo.task_suite.load_suites import get_suite
    from programs import Call, Intent, Library, render
    from suite import CONTRACTS

    suite = get_suite("v1", "travel")
    task = suite.user_tasks["user_task_1"]
    trusted = ROOT / "examples" / "agentdojo" / "travel" / "tools" / "travel" / "trusted"
    lib = Library("travel", trusted / "effects.py", CONTRACTS["travel"])
    env = task.init_environment(suite.load_and_inject_default_environment({}))
    intent = importlib.import_module("intents.travel").INTENTS["user_task_1"]
    oracle = render(lib, title="travel user_task_1", prompt=task.PROMPT,
                    intent=Intent(intent.guarantees, task.GROUND_TRUTH_OUTPUT),
                    calls=[Call(c.function, dict(c.args)) for c in task.ground_truth(env)])
    assert canned(oracle, [task.GROUND_TRUTH_OUTPUT])
    own = hand_written(PROGRAMS / "travel", "user_task_1")
    assert own is not None and not canned(own, [task.GROUND_TRUTH_OUTPUT])


def test_canned_is_read_from_the_program() -> None:
    expected = ["Your total spending in March 2022 was 1050."]
    assert canned('def main() -> None:\n    print("Your total spending in March 2022 was 1050.")\n', expected)
    assert canned('def main() -> None:\n    x = "total: 1050"\n    print(x)\n', ["1050"])  # a literal holds it
    assert canned('def main() -> None:\n    print(f"was {1050}.")\n', ["was 1050."])  # an f-string of constants
    assert canned('def main() -> None:\n    print("Done.")\n', ["1050"])  # only literal prints, an answer expected
    computed = 'def main() -> None:\n    total = 1000 + 50\n    print(f"was {total}.")\n    print("Bye.")\n'
    assert not canned(computed, expected)
    assert not canned('def main() -> None:\n    print("Paid.")\n', [""])  # no answer expected: nothing to can
