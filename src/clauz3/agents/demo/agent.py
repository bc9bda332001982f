"""The demo as an ACP agent on the ``acp`` SDK (04 §12.1): sessions, prompts, cancel, load.

The protocol side lives here; what a prompt means is :mod:`.script`, what it submits is
:mod:`.programs`, and one turn's actions are :mod:`.turn`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from importlib import metadata
from typing import Any

import acp
from acp import RequestError
from acp.schema import (
    AgentCapabilities,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    McpServerStdio,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
)

from . import state
from .bridge_client import BridgeConnection, StdioEntry
from .session import DemoSession
from .turn import Turn

log = logging.getLogger("clauz3.agents.demo")

NEEDS_ONE_BRIDGE = "The demo needs exactly one MCP server named clauz3"


def _version() -> str:
    try:
        return metadata.version("clauz3")
    except metadata.PackageNotFoundError:
        return "0"


class DemoAgent:
    """An ``acp.Agent``: methods not defined here are answered -32601 by the SDK's router."""

    def __init__(self) -> None:
        self._conn: Any = None
        self._sessions: dict[str, DemoSession] = {}

    def on_connect(self, conn: Any) -> None:
        self._conn = conn

    async def initialize(
        self, protocol_version: int, client_capabilities: Any = None, client_info: Any = None, **kwargs: Any
    ) -> InitializeResponse:
        # Always version 1 whatever was asked (DEMO-2): the client decides whether it can speak it.
        return InitializeResponse(
            protocol_version=acp.PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=False, audio=False, embedded_context=True),
                mcp_capabilities=McpCapabilities(http=False, sse=False),
            ),
            auth_methods=[],
            agent_info=Implementation(name="clauz3-demo", title="Demo (scripted, no model)", version=_version()),
        )

    async def new_session(
        self, cwd: str, additional_directories: Any = None, mcp_servers: Any = None, **kwargs: Any
    ) -> NewSessionResponse:
        entry = _bridge_entry(mcp_servers or [])
        _check_cwd(cwd)
        record = state.SessionRecord(id="demo-" + secrets.token_hex(16), cwd=cwd)
        bridge = _connect(entry, cwd)
        record.save()
        self._sessions[record.id] = DemoSession(record, bridge)
        return NewSessionResponse(session_id=record.id)

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: Any = None, additional_directories: Any = None, **kwargs: Any
    ) -> LoadSessionResponse:
        record = state.load(session_id)
        if record is None:
            raise RequestError(-32002, "Unknown session id")
        entry = _bridge_entry(mcp_servers or [])
        if os.path.normpath(cwd) != os.path.normpath(record.cwd):
            raise RequestError(-32602, "This session belongs to another folder")
        old = self._sessions.pop(session_id, None)
        if old is not None:
            await _end_session(old)
        bridge = _connect(entry, cwd)
        session = DemoSession(record, bridge)
        self._sessions[session_id] = session
        # Replay before responding (DEMO-4): the client sees the history as ordinary updates.
        for item in record.history:
            make = acp.update_user_message_text if item["role"] == "user" else acp.update_agent_message_text
            await self._conn.session_update(session_id, make(item["text"]))
        return LoadSessionResponse()

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        session = self._sessions.get(session_id)
        if session is None:
            raise RequestError(-32002, "Unknown session id")
        if session.turn is not None and not session.turn.done():
            raise RequestError(-32602, "A turn is already running")
        turn = Turn(self._conn, session, prompt)
        task = asyncio.create_task(turn.run(), name=f"demo.turn.{session_id}")
        session.turn = task
        try:
            stop_reason = await asyncio.shield(task)
        except asyncio.CancelledError:
            # The connection is closing under us: stop the turn too, never leave it running.
            task.cancel()
            raise
        finally:
            if session.turn is task:
                session.turn = None
        return PromptResponse(stop_reason=stop_reason)  # type: ignore[arg-type]  # stop_reason is one of ACP's StopReason literals, checked where it is set

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self._sessions.get(session_id)
        if session is not None and session.turn is not None and not session.turn.done():
            session.turn.cancel()

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise RequestError.method_not_found(f"_{method}")

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None

    async def close(self) -> None:
        sessions = list(self._sessions.values())
        self._sessions.clear()
        await asyncio.gather(*(_end_session(s) for s in sessions), return_exceptions=True)


def _check_cwd(cwd: str) -> None:
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise RequestError(-32602, "cwd must be an absolute path")


def _bridge_entry(servers: list[Any]) -> StdioEntry | None:
    """The one stdio entry named clauz3, None when there is none (ADD-1), -32602 otherwise."""
    if any(not isinstance(server, McpServerStdio) for server in servers):
        raise RequestError(-32602, NEEDS_ONE_BRIDGE)
    named = [server for server in servers if server.name == "clauz3"]
    if len(named) > 1:
        raise RequestError(-32602, NEEDS_ONE_BRIDGE)
    if not named:
        return None
    server = named[0]
    return StdioEntry(
        server.name, server.command, tuple(server.args), tuple((e.name, e.value) for e in server.env)
    )


def _connect(entry: StdioEntry | None, cwd: str) -> BridgeConnection | None:
    """Start the session's bridge without waiting (issue 13 amends DEMO-3): the session exists at once
    and its bridge starts in parallel; a tool call waits for it and a failed start is said there."""
    if entry is None:
        return None
    bridge = BridgeConnection(entry, cwd)
    bridge.start()
    return bridge


async def _end_session(session: DemoSession) -> None:
    if session.turn is not None and not session.turn.done():
        session.turn.cancel()
        await asyncio.gather(session.turn, return_exceptions=True)
    if session.bridge is not None:
        await session.bridge.close()
