"""The harness grades as AgentDojo does: on every v1 user task of the four suites (banking in the default tier), the benchmark's grading (``suite._grade`` on
the post-environment, the trace of tool calls and the reported answer) agrees with AgentDojo's own
``GroundTruthPipeline`` run through ``run_task_with_pipeline``. No clauz3 program runs here: this checks the
grader the benchmark's figures rest on, not the programs. It cannot pass on nothing: every task is compared, the
ground truth passes (all but at most one task: workspace ``user_task_7`` fails AgentDojo's own ``utility()``), and
the same grader fails a run that did nothing on at least half the tasks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "agentdojo"))

import agentdojo  # noqa: E402, F401  # a default dependency group (pyproject [tool.uv]): missing is a failure


# banking is cheap enough for the default tier; loading the larger suites' environments per task is not
@pytest.mark.parametrize("suite_name", ["banking", *(pytest.param(n, marks=pytest.mark.agentdojo)
                                                     for n in ("slack", "travel", "workspace"))])
def test_harness_grading_matches_ground_truth_pipeline(suite_name: str) -> None:
    from agentdojo.agent_pipeline.ground_truth_pipeline import GroundTruthPipeline
    from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime
    from agentdojo.task_suite.load_suites import get_suite
    from suite import _grade

    suite = get_suite("v1", suite_name)
    compared = passed = refused = 0
    for tid, task in suite.user_tasks.items():
        theirs, _ = suite.run_task_with_pipeline(GroundTruthPipeline(task), task, None, {})
        env = task.init_environment(suite.load_and_inject_default_environment({}))
        pre = env.model_copy(deep=True)
        runtime = FunctionsRuntime(suite.tools)
        trace = []
        for c in task.ground_truth(env.model_copy(deep=True)):
            args = {k: v for k, v in dict(c.args).items() if v is not None}  # as the effects call the tools
            trace.append(FunctionCall(function=c.function, args=args))
            runtime.run_function(env, c.function, args)
        ours = _grade(task, getattr(task, "GROUND_TRUTH_OUTPUT", ""), pre, env, trace, injection=False)
        assert ours == bool(theirs), f"{suite_name} {tid}: harness {ours}, GroundTruthPipeline {theirs}"
        compared += 1
        passed += ours
        # the same grader on a run that did nothing (no call, no answer): it must be able to say no
        idle = task.init_environment(suite.load_and_inject_default_environment({}))
        refused += ours and not _grade(task, "", idle.model_copy(deep=True), idle, [], injection=False)
    assert compared == len(suite.user_tasks) > 0
    # not a comparison of nothing: the ground truth passes (nearly) every task, and on most of them doing nothing fails
    assert passed >= compared - 1, f"{suite_name}: only {passed}/{compared} ground truths pass"
    assert refused >= compared // 2, f"{suite_name}: doing nothing fails only {refused}/{compared} tasks"
