"""The AgentDojo environment the effects act on, bound by whoever runs the program (the benchmark).

Effects never re-implement a tool: ``call`` runs AgentDojo's own tool function through AgentDojo's
``FunctionsRuntime`` on the bound environment and returns the text AgentDojo would show a model.
AgentDojo is imported only when a call runs, so proving needs nothing beyond clauz3.
"""

from __future__ import annotations

from typing import Any

_BOUND: dict[str, Any] = {}


def bind(environment: object, runtime: object) -> list[object]:
    """Act on ``environment`` through ``runtime``; returns the list the calls are recorded in."""
    calls: list[object] = []
    _BOUND.update(environment=environment, runtime=runtime, calls=calls)
    return calls


def unbind() -> None:
    _BOUND.clear()


def call(function: str, **arguments: object) -> str:
    if not _BOUND:
        raise RuntimeError("no AgentDojo environment is bound: run this program through bench/agentdojo")
    from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
    from agentdojo.functions_runtime import FunctionCall

    args = {k: v for k, v in arguments.items() if v is not None}
    _BOUND["calls"].append(FunctionCall(function=function, args=args))
    result, error = _BOUND["runtime"].run_function(_BOUND["environment"], function, args)
    return f"error: {error}" if error else tool_result_to_str(result)
