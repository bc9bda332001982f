"""The messages the ACP client hands to the rest of the host. Protocol shapes stay in here.

Every message that came from a ``session/update`` carries ``frame``: the notification exactly as
received, so the host can forward and retain it verbatim (02 §4.4) while reading typed fields.
"""

from __future__ import annotations

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
    frame: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class ToolCall:
    """A ``tool_call`` (``update=False``) or ``tool_call_update`` (``update=True``).

    ``tool`` is the clauz3 tool this call was identified as from structured fields (04 PRM-2),
    else None; display titles never decide it.
    """

    tool_call_id: str
    update: bool
    title: str | None
    status: str | None
    tool: str | None
    raw_input: Any
    raw_output: Any
    frame: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class OtherUpdate:
    """Any other valid in-turn update (unknown kinds included), kept verbatim (04 ACP-12)."""

    kind: str
    frame: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class ConfigUpdate:
    """``config_option_update`` / ``current_mode_update`` outside a turn: display only, not retained."""

    kind: str
    frame: dict[str, Any] = field(repr=False)


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


AcpEvent = (
    AgentText | ToolCall | OtherUpdate | ConfigUpdate | PermissionRefused | TurnEnded | AgentExited | AgentStopped
)
