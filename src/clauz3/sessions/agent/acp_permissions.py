"""The permission rule (04 §4): native permission requests are refused; a request for a clauz3
tool call announced earlier in this turn gets the first ``allow_once`` option. Pure functions.

Tool identity comes only from structured fields (PRM-2); display titles never count. Which fields is the
agent's :class:`PermissionRule` (its provider's ``permissions``): Claude's and Codex's live with their
provider (``providers/claude.py``, ``providers/codex.py``), the two shared ones here.
"""

from __future__ import annotations

from typing import Any, Protocol

SIX_TOOLS = frozenset({"run", "status", "tools", "libraries", "list_skills", "read_skill"})
MAX_OPTIONS = 32
CANCELLED: dict[str, Any] = {"outcome": {"outcome": "cancelled"}}


def as_object(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (the rules read untrusted frames)."""
    return value if isinstance(value, dict) else {}


class PermissionRule(Protocol):
    """How one agent names a clauz3 tool call (PRM-2): each provider carries one (``Provider.permissions``)."""

    def announced_tool(self, update: dict[str, Any]) -> str | None:
        """The clauz3 tool a ``tool_call``/``tool_call_update`` names by structured fields, else None."""
        ...

    def request_matches(self, params: dict[str, Any], tool_call: dict[str, Any], tool: str) -> bool:
        """Whether a permission request for a call announced as ``tool`` really asks for that tool."""
        ...


class NamedInClauz3Meta:
    """The demo and the native adapters (NAT-5): the tool is ``_meta.clauz3.tool``."""

    def announced_tool(self, update: dict[str, Any]) -> str | None:
        named = as_object(as_object(update.get("_meta")).get("clauz3")).get("tool")
        return named if isinstance(named, str) and named in SIX_TOOLS else None

    def request_matches(self, params: dict[str, Any], tool_call: dict[str, Any], tool: str) -> bool:
        meta = as_object(tool_call.get("_meta"))
        if "clauz3" in meta and "tool" in as_object(meta["clauz3"]):
            return bool(meta["clauz3"]["tool"] == tool)
        return True


class RefuseEvery:
    """OpenCode: its ``clauz3_*`` tools are pre-allowed by config, so every request it sends is refused."""

    def announced_tool(self, update: dict[str, Any]) -> str | None:
        return None

    def request_matches(self, params: dict[str, Any], tool_call: dict[str, Any], tool: str) -> bool:
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
    tool_call = as_object(as_object(params).get("toolCall"))
    tool_call_id = tool_call.get("toolCallId")
    return tool_call_id if isinstance(tool_call_id, str) else None


def decide(
    rule: PermissionRule,
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
    if tool is None or not rule.request_matches(params, tool_call, tool):
        return CANCELLED
    option_id = _allow_once(params.get("options"))
    if option_id is None:
        return CANCELLED
    return {"outcome": {"outcome": "selected", "optionId": option_id}}
