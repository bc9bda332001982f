"""The common part of the native adapters for ``pi`` and ``agy`` (04 §9, NAT-1..5).

An ACP agent on the ``acp`` SDK whose sessions drive a non-ACP runtime through a
:class:`Runtime`. It requires exactly one stdio MCP server named ``clauz3`` and
``_meta.clauz3`` (NAT-2), keeps a mapping from the ACP session id to the runtime's own id
(NAT-3), announces clauz3 tool calls with ``_meta.clauz3.tool`` (NAT-5) and never asks for
permission. Errors are host-authored text; raw runtime output never reaches a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

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
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
)

from clauz3.sessions.agent.providers.table import SIX_TOOLS
from clauz3.sessions.errors import SessionError

NEEDS_BRIDGE = "This agent needs exactly one stdio MCP server named clauz3"
NEEDS_META = "This agent needs _meta.clauz3 with model, instructions and restricted"
OTHER_OWNER = "This session belongs to another agent/project/mode"
UNKNOWN_SESSION = "Unknown session id"
TURN_RUNNING = "A turn is already running"
TERM_GRACE = 2.0
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

Emit = Callable[[Any], Awaitable[None]]


class NativeError(SessionError):
    """A turn failed; ``str(error)`` is host-authored and safe to show."""


@dataclass(frozen=True)
class NativeConfig:
    """``_meta.clauz3`` (ACP-8) plus the session's bridge entry and canonical project."""

    model: str | None
    instructions: str
    restricted: bool
    project: str
    bridge: dict[str, Any]  # {"command", "args", "env": {name: value}}


class Runtime(Protocol):
    """One native runtime conversation. ``native_id`` may appear after the first turn."""

    native_id: str | None

    async def run_turn(self, text: str, emit: Emit, turn: int) -> str: ...

    async def abort(self) -> None: ...

    async def close(self) -> None: ...


RuntimeFactory = Callable[[NativeConfig, "str | None"], Runtime]


def safe_text(value: Any, limit: int = 300) -> str:
    return _CONTROL.sub(" ", str(value))[:limit]


def data_dir() -> Path:
    home = os.environ.get("CLAUZ3_HOME", "")
    if not home or not os.path.isabs(home):
        raise RequestError(-32603, "CLAUZ3_HOME is not set to an absolute path")
    return Path(home)


def private_dir() -> Path:
    path = os.environ.get("CLAUZ3_AGENT_PRIVATE_DIR", "")
    if not path or not os.path.isabs(path) or not os.path.isdir(path):
        raise RequestError(-32603, "CLAUZ3_AGENT_PRIVATE_DIR is not a directory")
    return Path(path)


def parse_request(cwd: Any, mcp_servers: Any, meta: dict[str, Any]) -> NativeConfig:
    """NAT-2: exactly one stdio server ``clauz3`` and an object ``_meta.clauz3``; else -32602."""
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise RequestError(-32602, "cwd must be an absolute path")
    servers = list(mcp_servers or [])
    if len(servers) != 1 or not isinstance(servers[0], McpServerStdio) or servers[0].name != "clauz3":
        raise RequestError(-32602, NEEDS_BRIDGE)
    server = servers[0]
    own = meta.get("clauz3")
    if not isinstance(own, dict):
        raise RequestError(-32602, NEEDS_META)
    model, instructions, restricted = own.get("model"), own.get("instructions"), own.get("restricted")
    if (model is not None and not isinstance(model, str)) or not isinstance(instructions, str) \
            or not isinstance(restricted, bool):
        raise RequestError(-32602, NEEDS_META)
    bridge = {"command": server.command, "args": list(server.args), "env": {e.name: e.value for e in server.env}}
    return NativeConfig(model, instructions, restricted, os.path.realpath(cwd), bridge)


# -- NAT-3 mapping files --------------------------------------------------------------------------

def _mapping_path(session_id: str) -> Path:
    return data_dir() / "agents" / "native-sessions" / f"{session_id}.json"


def write_private(path: Path, text: str) -> None:
    """Atomic 0600 write in a 0700 directory."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save_mapping(session_id: str, agent: str, config: NativeConfig, native_id: str | None, created: float) -> None:
    record = {
        "schema_version": 1, "agent": agent, "project": config.project, "native_id": native_id,
        "restricted": config.restricted, "created": created,
    }
    write_private(_mapping_path(session_id), json.dumps(record))


def load_mapping(session_id: str, agent: str, config: NativeConfig) -> dict[str, Any]:
    """The saved mapping; -32002 when unknown, -32602 when it belongs to another owner."""
    if not isinstance(session_id, str) or not _UUID.match(session_id):
        raise RequestError(-32002, UNKNOWN_SESSION)
    try:
        record = json.loads(_mapping_path(session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise RequestError(-32002, UNKNOWN_SESSION) from None
    if not isinstance(record, dict) or record.get("schema_version") != 1:
        raise RequestError(-32002, UNKNOWN_SESSION)
    if (record.get("agent"), record.get("project"), record.get("restricted")) != (
        agent, config.project, config.restricted,
    ):
        raise RequestError(-32602, OTHER_OWNER)
    return record


# -- ACP updates ----------------------------------------------------------------------------------

def clauz3_tool(name: Any) -> str | None:
    """The clauz3 tool a runtime tool name means (``run``, ``mcp__clauz3__run``, ``clauz3/run``…)."""
    if not isinstance(name, str):
        return None
    for prefix in ("mcp__clauz3__", "clauz3_", "clauz3/", "clauz3."):
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    return name if name in SIX_TOOLS else None


def tool_start(call_id: str, title: str, status: ToolCallStatus, tool: str | None, raw_input: Any = None) -> ToolCallStart:
    meta = {"clauz3": {"tool": tool}} if tool else None
    return ToolCallStart(
        session_update="tool_call", tool_call_id=call_id, title=safe_text(title, 200), status=status,
        raw_input=raw_input, field_meta=meta,
    )


def tool_update(call_id: str, status: ToolCallStatus, tool: str | None, raw_output: Any = None) -> ToolCallProgress:
    meta = {"clauz3": {"tool": tool}} if tool else None
    return ToolCallProgress(
        session_update="tool_call_update", tool_call_id=call_id, status=status,
        raw_output=raw_output, field_meta=meta,
    )


def prompt_text(prompt: list[Any]) -> str:
    parts = []
    for block in prompt:
        text = getattr(block, "text", None)
        if getattr(block, "type", None) == "text" and isinstance(text, str):
            parts.append(text)
    return "\n".join(parts)


# -- children -------------------------------------------------------------------------------------

async def end_child(proc: asyncio.subprocess.Process | None) -> None:
    """NAT-4: SIGTERM, 2 s, SIGKILL, reap."""
    if proc is None or proc.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), TERM_GRACE)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


# -- the agent ------------------------------------------------------------------------------------

def _version() -> str:
    try:
        return metadata.version("clauz3")
    except metadata.PackageNotFoundError:
        return "0"


@dataclass
class NativeSession:
    id: str
    config: NativeConfig
    runtime: Runtime
    created: float
    turns: int = 0
    task: asyncio.Task[str] | None = None
    cancelled: bool = False
    saved_native_id: str | None = field(default=None)


class NativeAgent:
    """An ``acp.Agent`` for one native runtime; unimplemented methods get -32601 from the SDK."""

    def __init__(self, agent: str, title: str, factory: RuntimeFactory) -> None:
        self.agent = agent
        self.title = title
        self._factory = factory
        self._conn: Any = None
        self._sessions: dict[str, NativeSession] = {}

    def on_connect(self, conn: Any) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, client_capabilities: Any = None, client_info: Any = None,
                         **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=acp.PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=False, audio=False, embedded_context=False),
                mcp_capabilities=McpCapabilities(http=False, sse=False),
            ),
            auth_methods=[],
            agent_info=Implementation(name=f"clauz3-{self.agent}", title=self.title, version=_version()),
        )

    async def new_session(self, cwd: str, additional_directories: Any = None, mcp_servers: Any = None,
                          **meta: Any) -> NewSessionResponse:
        config = parse_request(cwd, mcp_servers, meta)
        session_id = str(uuid.uuid4())
        created = time.time()
        save_mapping(session_id, self.agent, config, None, created)
        self._sessions[session_id] = NativeSession(session_id, config, self._factory(config, None), created)
        return NewSessionResponse(session_id=session_id)

    async def load_session(self, cwd: str, session_id: str, mcp_servers: Any = None,
                           additional_directories: Any = None, **meta: Any) -> LoadSessionResponse:
        config = parse_request(cwd, mcp_servers, meta)
        record = load_mapping(session_id, self.agent, config)
        native_id = record.get("native_id") if isinstance(record.get("native_id"), str) else None
        old = self._sessions.pop(session_id, None)
        if old is not None:
            await self._end(old)
        raw_created = record.get("created")
        created = raw_created if isinstance(raw_created, (int, float)) else time.time()
        session = NativeSession(session_id, config, self._factory(config, native_id), float(created))
        session.saved_native_id = native_id
        self._sessions[session_id] = session
        return LoadSessionResponse()

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        session = self._sessions.get(session_id)
        if session is None:
            raise RequestError(-32002, UNKNOWN_SESSION)
        if session.task is not None and not session.task.done():
            raise RequestError(-32602, TURN_RUNNING)
        session.turns += 1
        session.cancelled = False

        async def emit(update: Any) -> None:
            await self._conn.session_update(session_id, update)

        task = asyncio.create_task(session.runtime.run_turn(prompt_text(prompt), emit, session.turns))
        session.task = task
        try:
            stop = await asyncio.shield(task)
        except asyncio.CancelledError:
            if session.cancelled:
                stop = "cancelled"
            else:
                task.cancel()
                raise
        except NativeError as exc:
            if session.cancelled:
                stop = "cancelled"
            else:
                raise RequestError(-32603, str(exc)) from None
        finally:
            self._remember(session)
        return PromptResponse(stop_reason="cancelled" if session.cancelled else stop)  # type: ignore[arg-type]  # stop is one of ACP's StopReason literals, set above

    def _remember(self, session: NativeSession) -> None:
        native_id = session.runtime.native_id
        if native_id and native_id != session.saved_native_id:
            with contextlib.suppress(OSError, RequestError):
                save_mapping(session.id, self.agent, session.config, native_id, session.created)
                session.saved_native_id = native_id

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self._sessions.get(session_id)
        if session is None or session.task is None or session.task.done():
            return
        # Hold this turn's task: while the child is being reaped the host may already have sent the
        # next prompt, and that new turn must not be the one cancelled.
        task = session.task
        session.cancelled = True
        await session.runtime.abort()
        if not task.done():
            task.cancel()

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise RequestError.method_not_found(f"_{method}")

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None

    async def _end(self, session: NativeSession) -> None:
        if session.task is not None and not session.task.done():
            session.task.cancel()
            await asyncio.gather(session.task, return_exceptions=True)
        await session.runtime.close()

    async def close(self) -> None:
        sessions = list(self._sessions.values())
        self._sessions.clear()
        await asyncio.gather(*(self._end(s) for s in sessions), return_exceptions=True)


async def serve(agent: NativeAgent) -> int:
    """Run ``agent`` on stdin/stdout until EOF; every child is ended on the way out."""
    try:
        await acp.run_agent(agent)  # type: ignore[arg-type]  # NativeAgent serves a subset of acp.Agent; the SDK answers the rest -32601
    finally:
        await agent.close()
    return 0
