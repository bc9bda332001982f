"""Host-built ACP parameters and error text (04 ACP-1, ACP-4..8, ACP-22). Pure functions.

Nothing from the browser, a prompt, project files or an agent reaches these: callers pass only
host-owned values (provider, project, socket path, ticket, data dir, instructions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clauz3._version import __version__

PROTOCOL_VERSION = 1
MAX_ERROR_CHARS = 2000
_SECRET_NAME = re.compile(r".*(_KEY|_TOKEN|_SECRET|PASSWORD)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def initialize_params() -> dict[str, Any]:
    """ACP-1: protocol 1, our client info, and no client capability at all."""
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "clientInfo": {"name": "clauz3", "title": "clauz3", "version": __version__},
    }


def bridge_entry(
    *,
    python: str,
    bridge_args: Sequence[str],
    lifetime_socket: str,
    ticket_file: str,
    data_dir: str,
) -> dict[str, Any]:
    """The one stdio MCP server entry (ACP-6), without a ``type`` field.

    The entry names the ticket's 0600 file, never the ticket (issue 11 §5): whatever the agent
    passes on, and ``/proc/<bridge>/environ``, show only a path the bridge has already unlinked."""
    return {
        "name": "clauz3",
        "command": python,
        # -I: the agent starts it in the workspace with its own environment; neither PYTHONPATH nor a
        # sitecustomize.py an approved program wrote there may run inside the bridge (issue 11 §4).
        "args": ["-I", "-m", "clauz3.bridge", *bridge_args],
        "env": [
            {"name": "CLAUZ3_SESSION_LIFETIME_SOCKET", "value": lifetime_socket},
            {"name": "CLAUZ3_BRIDGE_TICKET_FILE", "value": ticket_file},
            {"name": "CLAUZ3_HOME", "value": data_dir},
        ],
    }


@dataclass(frozen=True)
class SessionParams:
    """``session/new`` / ``session/load`` parameters: canonical ``cwd``, the bridge entry, ``_meta``."""

    cwd: str
    mcp_servers: tuple[dict[str, Any], ...]
    meta: Mapping[str, Any] | None = None

    def new_params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"cwd": self.cwd, "mcpServers": [dict(s) for s in self.mcp_servers]}
        if self.meta:
            params["_meta"] = dict(self.meta)
        return params

    def load_params(self, session_id: str) -> dict[str, Any]:
        return {**self.new_params(), "sessionId": session_id}


def sanitize(message: Any, env: Mapping[str, str] | None = None) -> str:
    """ACP-22: no control characters, at most 2,000 chars, secret env values redacted."""
    text = _CONTROL.sub("", str(message))
    for name, value in (env or {}).items():
        if _SECRET_NAME.match(name.upper()) and len(value) >= 8:
            text = text.replace(value, "[redacted]")
    return text[:MAX_ERROR_CHARS]
