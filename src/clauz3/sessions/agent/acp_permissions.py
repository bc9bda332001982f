"""The permission rule (04 §4): native permission requests are refused; a request for a clauz3
tool call announced earlier in this turn gets the first ``allow_once`` option. Pure functions.

Tool identity comes only from structured fields (PRM-2); display titles never count.
"""

from __future__ import annotations

from typing import Any

SIX_TOOLS = frozenset({"run", "status", "tools", "libraries", "list_skills", "read_skill"})
MAX_OPTIONS = 32
CANCELLED: dict[str, Any] = {"outcome": {"outcome": "cancelled"}}


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def announced_tool(provider: str, update: dict[str, Any]) -> str | None:
    """The clauz3 tool a ``tool_call``/``tool_call_update`` names by structured fields, else None."""
    if provider == "claude":
        name = _obj(_obj(update.get("_meta")).get("claudeCode")).get("toolName")
        if isinstance(name, str) and name.startswith("mcp__clauz3__"):
            tool = name.removeprefix("mcp__clauz3__")
            return tool if tool in SIX_TOOLS else None
        return None
    if provider == "codex":
        raw = _obj(update.get("rawInput"))
        called = raw.get("tool")
        if raw.get("server") == "clauz3" and isinstance(called, str) and called in SIX_TOOLS:
            return called
        return None
    if provider in ("demo", "pi", "agy"):
        named = _obj(_obj(update.get("_meta")).get("clauz3")).get("tool")
        return named if isinstance(named, str) and named in SIX_TOOLS else None
    return None  # opencode: its clauz3_* tools are pre-allowed by config, every request is refused


def _request_condition(provider: str, params: dict[str, Any], tool_call: dict[str, Any], tool: str) -> bool:
    if provider == "claude":
        meta = _obj(tool_call.get("_meta"))
        if "claudeCode" in meta and "toolName" in _obj(meta["claudeCode"]):
            return meta["claudeCode"]["toolName"] == f"mcp__clauz3__{tool}"
        return True
    if provider == "codex":
        return _obj(params.get("_meta")).get("is_mcp_tool_approval") is True
    if provider in ("demo", "pi", "agy"):
        meta = _obj(tool_call.get("_meta"))
        if "clauz3" in meta and "tool" in _obj(meta["clauz3"]):
            return meta["clauz3"]["tool"] == tool
        return True
    return False


def _allow_once(options: Any) -> str | None:
    if not isinstance(options, list) or len(options) > MAX_OPTIONS:
        return None
    chosen = None
    for option in options:
        if not isinstance(option, dict):
            return None
        option_id, kind = option.get("optionId"), option.get("kind")
        if not isinstance(option_id, str) or not isinstance(kind, str):
            return None
        if kind == "allow_once" and chosen is None:
            chosen = option_id
    return chosen


def request_tool_call_id(params: Any) -> str | None:
    """The string tool-call id of a permission request, if it has one (for refusal notices)."""
    tool_call = _obj(_obj(params).get("toolCall"))
    tool_call_id = tool_call.get("toolCallId")
    return tool_call_id if isinstance(tool_call_id, str) else None


def decide(
    provider: str,
    params: Any,
    *,
    live_session_id: str | None,
    turn_open: bool,
    announced: dict[str, str],
) -> dict[str, Any]:
    """The answer to ``session/request_permission`` (PRM-1): ``selected`` allow_once, or ``cancelled``.

    ``turn_open`` is true only while a turn is active and not cancelling; ``announced`` maps
    tool-call ids announced in this turn to the clauz3 tool they were identified as.
    """
    if not isinstance(params, dict) or not turn_open or live_session_id is None:
        return CANCELLED
    if params.get("sessionId") != live_session_id:
        return CANCELLED
    tool_call = params.get("toolCall")
    if not isinstance(tool_call, dict):
        return CANCELLED
    tool_call_id = tool_call.get("toolCallId")
    if not isinstance(tool_call_id, str):
        return CANCELLED
    tool = announced.get(tool_call_id)
    if tool is None or not _request_condition(provider, params, tool_call, tool):
        return CANCELLED
    option_id = _allow_once(params.get("options"))
    if option_id is None:
        return CANCELLED
    return {"outcome": {"outcome": "selected", "optionId": option_id}}
