"""The messages the ACP client hands to the rest of the host. Protocol shapes stay in here.

This is the one module that ``match``es on a ``session/update`` (:func:`read_update`); everything
after it sees the small frozen messages below. A retained agent update is stored in clauz3's own
stable form, ``{"method": "clauz3/agent", "params": {"kind": …}}`` (:func:`to_frame`), and read
back with :func:`message_of`, which also reads transcripts saved by older versions (raw
``session/update`` frames), so no other module ever reads an ACP field name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

STOP_REASONS = frozenset({"end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"})


@dataclass(frozen=True)
class Capabilities:
    """State ``capabilities`` (04 ACP-3)."""

    load_session: bool = False
    images: bool = False
    files: bool = False


@dataclass(frozen=True)
class AgentInfo:
    """What ``initialize`` told us (04 ACP-2, ACP-3)."""

    capabilities: Capabilities
    agent_name: str | None
    agent_version: str | None
    auth_methods: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class SessionInfo:
    """A started or loaded ACP session; ``result`` is the raw response (``configOptions``, ``models``)."""

    session_id: str
    result: dict[str, Any]


@dataclass(frozen=True)
class AgentText:
    """One ``agent_message_chunk`` text block, in wire order."""

    chunk: str


@dataclass(frozen=True)
class ToolCall:
    """A ``tool_call`` (``update=False``) or ``tool_call_update`` (``update=True``).

    ``tool`` is the clauz3 tool this call was identified as from structured fields (04 PRM-2),
    else None; display titles never decide it. ``shown_tool`` is what the transcript labels the
    row with (the trusted ``tool``, else a clauz3 tool named by its metadata or title): display
    only. ``text`` is the result text (text blocks, changed paths); ``details`` holds the other
    fields verbatim for the row's raw-data view.
    """

    tool_call_id: str
    update: bool
    title: str | None
    status: str | None
    tool: str | None
    raw_input: Any
    raw_output: Any
    text: str = ""
    shown_tool: str | None = None
    details: dict[str, Any] = field(default_factory=dict, repr=False)
    # Every other text of the content blocks (a diff's old and new text, a terminal's output, a field no
    # block type above names): what the agent was shown though the row does not display it (issue 20).
    shown: str = ""
    # What the content showed that has no text to index (an image, audio, a binary resource: its MIME type).
    unread: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlanEntry:
    content: str
    status: str | None


@dataclass(frozen=True)
class Plan:
    """A ``plan`` update: the agent's whole current plan (it replaces the previous one)."""

    entries: tuple[PlanEntry, ...]


@dataclass(frozen=True)
class OtherUpdate:
    """Any other valid in-turn update (unknown kinds included), kept verbatim in ``body`` (04 ACP-12)."""

    kind: str
    body: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class ConfigUpdate:
    """``config_option_update`` / ``current_mode_update`` outside a turn: display only, not retained."""

    kind: str


@dataclass(frozen=True)
class PermissionRefused:
    """A permission request answered ``cancelled``; at most once per tool-call id (04 PRM-4)."""

    tool_call_id: str | None


@dataclass(frozen=True)
class TurnEnded:
    """``clauz3/turn_end`` material (04 ACP-16, ACP-17): published after every earlier update."""

    stop_reason: str  # one of STOP_REASONS or "error"
    forced: bool = False
    error: str | None = None
    no_response: bool = False


@dataclass(frozen=True)
class AgentExited:
    """The adapter ended without the host asking (02 TURN-9); ``detail`` is host-authored."""

    detail: str


@dataclass(frozen=True)
class AgentStopped:
    """The host ended the adapter (Stop escalation, close)."""

    forced: bool


AgentUpdate = AgentText | ToolCall | Plan | OtherUpdate
AcpEvent = (
    AgentText | ToolCall | Plan | OtherUpdate | ConfigUpdate | PermissionRefused | TurnEnded | AgentExited
    | AgentStopped
)



# -- the wire: the one place a session/update is read --------------------------------------------

CONFIG_KINDS = frozenset({"config_option_update", "current_mode_update"})
_CLAUZ3_TOOLS = frozenset({"run", "status", "tools", "libraries", "list_skills", "read_skill"})
_TOOL_TITLE = re.compile(r"(?:mcp__)?clauz3(?:__|[.:/_-])(\w+)")
_TOOL_FIELDS = frozenset({"sessionUpdate", "toolCallId", "title", "status", "rawInput", "rawOutput", "content"})


@dataclass(frozen=True)
class Incoming:
    """One ``session/update`` notification: its session, the typed message, and (for the ACP
    client's tool-identity rule, 04 PRM-2) the raw update object, which goes no further."""

    session_id: str | None
    message: AgentUpdate
    update: dict[str, Any] = field(repr=False)

    @property
    def produces_output(self) -> bool:
        """Whether this update counts as a response for ``no_response`` (02 TURN-4)."""
        if isinstance(self.message, ToolCall):
            return not self.message.update
        return self.update.get("sessionUpdate") == "agent_message_chunk"


def read_update(frame: dict[str, Any]) -> Incoming | None:
    """A ``session/update`` notification as received, or None when it is malformed (04 ACP-11)."""
    params = frame.get("params")
    update = params.get("update") if isinstance(params, dict) else None
    if not isinstance(update, dict) or not isinstance(update.get("sessionUpdate"), str):
        return None
    session = params.get("sessionId") if isinstance(params, dict) else None
    return Incoming(session if isinstance(session, str) else None, _parse(update), update)


def _parse(update: dict[str, Any]) -> AgentUpdate:
    kind: str = update["sessionUpdate"]
    match kind:
        case "agent_message_chunk":
            content = update.get("content")
            if isinstance(content, dict) and content.get("type") == "text" and isinstance(content.get("text"), str):
                return AgentText(content["text"])
        case "tool_call" | "tool_call_update" if isinstance(update.get("toolCallId"), str):
            return _tool_call(kind, update)
        case "plan" if isinstance(update.get("entries"), list):
            return Plan(tuple(
                PlanEntry(str(e.get("content") or ""), e["status"] if isinstance(e.get("status"), str) else None)
                for e in update["entries"] if isinstance(e, dict)))
    return OtherUpdate(kind, update)


def _tool_call(kind: str, update: dict[str, Any]) -> ToolCall:
    title, status = update.get("title"), update.get("status")
    return ToolCall(
        tool_call_id=update["toolCallId"],
        update=kind == "tool_call_update",
        title=title if isinstance(title, str) else None,
        status=status if isinstance(status, str) else None,
        tool=None,
        raw_input=update.get("rawInput"),
        raw_output=update.get("rawOutput"),
        text=_result_text(update.get("content")),
        shown_tool=_shown_tool(update, title),
        details={k: v for k, v in update.items() if k not in _TOOL_FIELDS},
        shown=_other_texts(update.get("content")),
        unread=_unread(update.get("content")),
    )


def _shown_tool(update: dict[str, Any], title: Any) -> str | None:
    meta = update.get("_meta")
    named = meta.get("clauz3") if isinstance(meta, dict) else None
    if isinstance(named, dict) and named.get("tool") in _CLAUZ3_TOOLS:
        return str(named["tool"])
    found = _TOOL_TITLE.fullmatch(title) if isinstance(title, str) else None
    return found.group(1) if found and found.group(1) in _CLAUZ3_TOOLS else None


def _result_text(content: Any) -> str:
    """The result as the row shows it: text blocks, an embedded resource's text, a linked resource's name and
    address, a diff's path. Everything else a block holds is :func:`_other_texts` (issue 20: the index)."""
    return "\n".join(_result_pieces(content)[0])


def _result_pieces(content: Any) -> tuple[list[str], set[str]]:
    """(the pieces the row shows, the strings of the blocks they were made of)."""
    out: list[str] = []
    used: set[str] = set()
    for item in content if isinstance(content, list) else []:
        inner = item.get("content") if isinstance(item, dict) and item.get("type") == "content" else item
        if not isinstance(inner, dict):
            continue
        kind = inner.get("type")
        resource = inner.get("resource") if kind == "resource" else None
        if kind == "text" and isinstance(inner.get("text"), str):
            picked = [inner["text"]]
        elif isinstance(resource, dict):
            picked = [resource[k] for k in ("text", "uri") if isinstance(resource.get(k), str)][:1]
        elif kind == "resource_link":
            picked = [str(inner[k]) for k in ("name", "uri") if isinstance(inner.get(k), str)]
            out.append(" ".join(picked))
            used.update(picked)
            continue
        elif kind == "diff":
            picked, shown = [str(inner.get("path") or "")], f"{inner.get('path') or ''} (changed)"
            out.append(shown)
            used.update(picked)
            continue
        else:
            continue
        out += picked
        used.update(picked)
    return out, used


_STRUCTURAL = frozenset({"type", "mimeType"})  # a block's own vocabulary, never data


def _binary(content: Any) -> list[str]:
    """The base64 bytes of the image, audio and binary resource blocks: no text to index."""
    out: list[str] = []
    for item in content if isinstance(content, list) else []:
        inner = item.get("content") if isinstance(item, dict) and item.get("type") == "content" else item
        if isinstance(inner, dict) and inner.get("type") in ("image", "audio") and isinstance(inner.get("data"), str):
            out.append(inner["data"])
        elif isinstance(inner, dict) and isinstance(inner.get("resource"), dict) and \
                isinstance(inner["resource"].get("blob"), str):
            out.append(inner["resource"]["blob"])
    return out


def _unread(content: Any) -> tuple[str, ...]:
    """The blocks the agent may read but that hold no text (an image, audio, a binary resource), by MIME type."""
    out: list[str] = []
    for item in content if isinstance(content, list) else []:
        inner = item.get("content") if isinstance(item, dict) and item.get("type") == "content" else item
        if not isinstance(inner, dict):
            continue
        resource = inner.get("resource") if inner.get("type") == "resource" else None
        if inner.get("type") in ("image", "audio"):
            out.append(str(inner.get("mimeType") or inner["type"]))
        elif isinstance(resource, dict) and "blob" in resource and not isinstance(resource.get("text"), str):
            out.append(str(resource.get("mimeType") or "a binary file"))
    return tuple(dict.fromkeys(out))


def _other_texts(content: Any) -> str:
    """Every string (and number) anywhere in the content blocks that :func:`_result_text` does not show, one a
    line: a diff's old and new text, a resource's address and title, a terminal's output, unknown fields."""
    used = _result_pieces(content)[1] | set(_binary(content))
    return "\n".join(dict.fromkeys(v for v in strings_of(content, skip=_STRUCTURAL, keys=False) if v not in used))


def strings_of(value: Any, *, skip: frozenset[str] = frozenset(), keys: bool = True) -> list[str]:
    """Every string in a JSON value (its keys too, unless ``keys`` is false: the content blocks' keys are ACP's own
    words) and every number as written: what an agent reading the value sees, with its own line breaks (a JSON
    dump would escape them: red team rt20). Keys in ``skip`` and their values are left out. Iterative, so a deeply
    nested value cannot exhaust the stack."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item:
                out.append(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int | float):
            out.append(str(item))
        elif isinstance(item, dict):
            for key, inner in reversed(list(item.items())):
                if key in skip:
                    continue
                stack.append(inner)
                if keys and isinstance(key, str):
                    stack.append(key)
        elif isinstance(item, list | tuple):
            stack.extend(reversed(item))
    return out


# -- the stored form ------------------------------------------------------------------------------

AGENT_METHOD = "clauz3/agent"
_OLD_METHOD = "session/update"  # transcripts saved before the stable form


def to_frame(message: AgentUpdate) -> dict[str, Any]:
    """The retained frame of one agent update, in clauz3's stable form."""
    params: dict[str, Any]
    match message:
        case AgentText(chunk=chunk):
            params = {"kind": "text", "text": chunk}
        case ToolCall():
            params = {"kind": "tool_call", "id": message.tool_call_id, "update": message.update,
                      "title": message.title, "status": message.status, "tool": message.tool,
                      "shown_tool": message.shown_tool, "input": message.raw_input, "output": message.raw_output,
                      "text": message.text, "details": message.details}
            if message.shown:
                params["shown"] = message.shown
            if message.unread:
                params["unread"] = list(message.unread)
        case Plan(entries=entries):
            params = {"kind": "plan", "entries": [{"content": e.content, "status": e.status} for e in entries]}
        case OtherUpdate(kind=kind, body=body):
            params = {"kind": "other", "type": kind, "body": body}
    return {"method": AGENT_METHOD, "params": params}


def message_of(frame: dict[str, Any]) -> AgentUpdate | None:
    """The agent update a retained frame holds (stable form or an older raw one), else None."""
    method = frame.get("method")
    if method == _OLD_METHOD:
        incoming = read_update(frame)
        return incoming.message if incoming is not None else None
    params = frame.get("params")
    if method != AGENT_METHOD or not isinstance(params, dict):
        return None
    match params.get("kind"):
        case "text" if isinstance(params.get("text"), str):
            return AgentText(params["text"])
        case "tool_call" if isinstance(params.get("id"), str):
            return ToolCall(
                tool_call_id=params["id"], update=params.get("update") is True, title=_str(params.get("title")),
                status=_str(params.get("status")), tool=_str(params.get("tool")), raw_input=params.get("input"),
                raw_output=params.get("output"), text=_str(params.get("text")) or "",
                shown_tool=_str(params.get("shown_tool")),
                details=params["details"] if isinstance(params.get("details"), dict) else {},
                shown=_str(params.get("shown")) or "",
                unread=tuple(str(x) for x in params["unread"]) if isinstance(params.get("unread"), list) else ())
        case "plan" if isinstance(params.get("entries"), list):
            return Plan(tuple(PlanEntry(str(e.get("content") or ""), _str(e.get("status")))
                              for e in params["entries"] if isinstance(e, dict)))
        case "other" if isinstance(params.get("type"), str):
            return OtherUpdate(params["type"], params["body"] if isinstance(params.get("body"), dict) else {})
    return None


def upgrade(frame: dict[str, Any]) -> dict[str, Any] | None:
    """A stored frame in today's form: an older raw ``session/update`` becomes the stable form
    (None if it holds nothing readable); every other frame is returned unchanged."""
    if frame.get("method") != _OLD_METHOD:
        return frame
    message = message_of(frame)
    return to_frame(message) if message is not None else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# Update kinds that are the agent's own words, the person's (replayed), or the session's settings: never read data
# (issue 20: the provenance index reads every other update's strings).
AGENT_WORDS = frozenset({"agent_message_chunk", "agent_thought_chunk", "user_message_chunk", "plan",
                         "available_commands_update", "current_mode_update", "config_option_update",
                         "session_info_update"})


def other_update_strings(body: Any) -> list[str]:
    """The strings of an update the host does not parse, without its kind field."""
    return strings_of(body, skip=frozenset({"sessionUpdate"}), keys=False)
