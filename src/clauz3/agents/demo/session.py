"""One demo session: its saved record, its bridge connection, the tools it lists and the turn running.

Its own module so that :mod:`.agent` (the protocol side) and :mod:`.turn` (one turn's actions) both
name it without importing each other.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

from . import state
from .bridge_client import BridgeConnection


@dataclass
class DemoSession:
    record: state.SessionRecord
    bridge: BridgeConnection | None
    tools_listing: dict[str, Any] | None = None
    refresh_tools: bool = False
    tool_counter: int = 0
    # Issue 22: a resumed session is a new process whose counter starts again; this per-process part keeps
    # its tool-call ids apart from the ones already in the transcript.
    tool_prefix: str = field(default_factory=lambda: secrets.token_hex(3))
    last_output: str = ""  # what the last completed run printed (a later program may copy from it)
    turn: asyncio.Task[str] | None = None

    @property
    def id(self) -> str:
        return self.record.id
