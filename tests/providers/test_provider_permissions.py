"""Permission answers per provider (04 PRM-1/2) for the updates each provider really sends."""

from __future__ import annotations

from typing import Any

import pytest

from clauz3.sessions.agent.acp_permissions import decide
from clauz3.sessions.agent.providers import lookup

OPTIONS = [{"optionId": "always", "kind": "allow_always"}, {"optionId": "once", "kind": "allow_once"},
           {"optionId": "no", "kind": "reject_once"}]
ANNOUNCED = {
    "claude": {"toolCallId": "t1", "_meta": {"claudeCode": {"toolName": "mcp__clauz3__run"}}},
    "codex": {"toolCallId": "t1", "rawInput": {"server": "clauz3", "tool": "run"}},
    "pi": {"toolCallId": "t1", "_meta": {"clauz3": {"tool": "run"}}},
    "agy": {"toolCallId": "t1", "_meta": {"clauz3": {"tool": "run"}}},
    "demo": {"toolCallId": "t1", "_meta": {"clauz3": {"tool": "run"}}},
    "opencode": {"toolCallId": "t1", "title": "clauz3_run"},
}


def request(provider: str, tool_call: dict[str, Any] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"sessionId": "s", "toolCall": tool_call or {"toolCallId": "t1"}, "options": OPTIONS}
    if provider == "codex":
        params["_meta"] = {"is_mcp_tool_approval": True}
    return params


@pytest.mark.parametrize("provider", sorted(ANNOUNCED))
def test_allow_once_only_for_announced_clauz3_calls(provider: str) -> None:
    rule = lookup(provider).permissions  # the provider's own PRM-2 rule
    tool = rule.announced_tool(ANNOUNCED[provider])
    announced = {"t1": tool} if tool else {}
    answer = decide(rule, request(provider), live_session_id="s", turn_open=True, announced=announced)
    if provider == "opencode":
        assert answer == {"outcome": {"outcome": "cancelled"}}  # pre-allowed by config; requests refused
    else:
        assert answer == {"outcome": {"outcome": "selected", "optionId": "once"}}
    # A native tool, or the same call outside the turn, is refused.
    assert decide(rule, request(provider, {"toolCallId": "t9"}), live_session_id="s", turn_open=True,
                  announced=announced) == {"outcome": {"outcome": "cancelled"}}
    assert decide(rule, request(provider), live_session_id="s", turn_open=False,
                  announced=announced) == {"outcome": {"outcome": "cancelled"}}


def test_native_adapter_tool_meta_is_what_the_rule_reads() -> None:
    from clauz3.sessions.agent.providers.native import tool_start

    update = tool_start("1:1", "clauz3/run", "in_progress", "run").model_dump(by_alias=True, exclude_none=True)
    assert update["_meta"] == {"clauz3": {"tool": "run"}}
    assert lookup("agy").permissions.announced_tool(update) == "run"
    unnamed = tool_start("1:2", "run_command", "in_progress", None).model_dump(by_alias=True, exclude_none=True)
    assert lookup("agy").permissions.announced_tool(unnamed) is None
