"""The MCP server (03 MCP-1…8) on the official ``mcp`` SDK's low-level server, over stdio.

Exactly six tools, each with input and output schemas; every result is one text block plus
``structuredContent``; invalid arguments are ``isError`` with ``invalid arguments: <detail>``.
The ``run`` tool supervises its worker in a thread, so the event loop keeps answering ``status``
and progress notifications go out through a latest-wins one-slot queue (MCP-7).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from clauz3.bridge.catalogue import Entry, Library, libraries_result, tools_result
from clauz3.bridge.runs_tool import RunOutcome, RunService, UnknownRun
from clauz3.bridge.schemas import (
    TOOLS,
    ArgumentError,
    LibrariesArgs,
    ListSkillsArgs,
    ReadSkillArgs,
    RunArgs,
    StatusArgs,
    ToolsArgs,
    validate,
)
from clauz3.bridge.skills import UNKNOWN, SkillSnapshot
from clauz3.bridge.textguard import Flagged, GuardedReader
from clauz3.runs.records import RunRecord

SERVER_NAME = "clauz3"
PROGRESS_SEND_TIMEOUT = 1.0
MAX_PROGRESS_MESSAGE = 4096
UNKNOWN_RUN = "Unknown request id; call status without arguments to list this conversation's runs."
INSTRUCTIONS = ("clauz3 runs proved programs. Read builtin:clauz3-authoring (read_skill) first; `tools` lists "
                "the effects and contracts you may use; submit programs to `run`; `status` reports runs.")


@dataclass
class BridgeState:
    """The snapshots taken at start plus the run service (None only in tests of the catalogue)."""

    tools: Sequence[Entry]
    libraries: Sequence[Library]
    skills: SkillSnapshot
    runs: RunService | None


def _text_result(text: str, structured: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured)


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def progress_message(record: RunRecord) -> str:
    """Compact record JSON within 4 KiB (MCP-7): drop the bulkiest optional parts first."""
    doc = record.to_json()
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    for key in ("obligation", "approval", "message", "sandbox_detail", "output"):
        if len(text.encode("utf-8")) <= MAX_PROGRESS_MESSAGE:
            break
        doc[key] = None
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode("utf-8")) > MAX_PROGRESS_MESSAGE:
        keep = {k: doc.get(k) for k in ("request_id", "run_id", "phase", "reason", "exit_code", "elapsed_seconds")}
        text = json.dumps(keep, ensure_ascii=False, separators=(",", ":"))
    return text


class ProgressSlot:
    """One-slot, latest-wins hand-off from the supervisor thread to the event loop.

    ``offer`` never blocks (it replaces whatever is waiting), so a slow client can never delay the
    supervisor or its deadlines.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._lock = threading.Lock()
        self._value: RunRecord | None = None
        self._event = asyncio.Event()
        self.closed = False

    def offer(self, record: RunRecord) -> None:
        with self._lock:
            self._value = record
        try:
            self._loop.call_soon_threadsafe(self._event.set)
        except RuntimeError:  # the loop is gone: nobody is listening any more
            pass

    def close(self) -> None:
        self.closed = True
        try:
            self._loop.call_soon_threadsafe(self._event.set)
        except RuntimeError:
            pass

    async def take(self) -> RunRecord | None:
        while True:
            with self._lock:
                value, self._value = self._value, None
            if value is not None:
                return value
            if self.closed:
                return None
            self._event.clear()
            with self._lock:
                if self._value is not None:
                    continue
            await self._event.wait()


# The MCP SDK's per-request context for this server (no lifespan state: the default dict).
Ctx: TypeAlias = ServerRequestContext[dict[str, Any]]


async def _send_progress(ctx: Ctx, slot: ProgressSlot) -> None:
    counter = 0
    while True:
        record = await slot.take()
        if record is None:
            return
        counter += 1
        with anyio.move_on_after(PROGRESS_SEND_TIMEOUT):  # a stuck client costs at most 1 s per update
            try:
                await ctx.session.report_progress(float(counter), None, progress_message(record))
            except Exception:
                return


def _has_progress_token(ctx: Ctx) -> bool:
    meta = getattr(ctx, "meta", None)
    if not meta:
        return False
    if isinstance(meta, dict):
        return meta.get("progress_token") is not None or meta.get("progressToken") is not None
    return getattr(meta, "progress_token", None) is not None


async def _run_tool(ctx: Ctx, runs: RunService, args: RunArgs) -> types.CallToolResult:
    loop = asyncio.get_running_loop()
    slot = ProgressSlot(loop) if _has_progress_token(ctx) else None
    started = runs.start(args.source, args.request_id, args.timeout_seconds,
                         listener=slot.offer if slot is not None else None)
    if isinstance(started, RunOutcome):
        return _text_result(started.text(), started.structured())
    sup = started
    future = loop.run_in_executor(None, runs.execute, sup)
    sender = asyncio.ensure_future(_send_progress(ctx, slot)) if slot is not None else None
    try:
        outcome = await asyncio.shield(future)
    except Exception as exc:  # a supervisor bug: one clear line, never a traceback to the agent
        return _error(f"the run could not be supervised ({type(exc).__name__}: {exc})"[:1000])
    except BaseException:
        # MCP request cancellation (or the bridge ending): RUN-11 with reason `stopped`, then wait for
        # the supervisor to kill, reap and record before the cancellation goes on.
        runs.cancel(sup.request_id, "stopped")
        with anyio.CancelScope(shield=True):
            try:
                await asyncio.shield(future)
            except Exception:
                pass
        raise
    finally:
        if slot is not None:
            slot.close()
        if sender is not None:
            with anyio.CancelScope(shield=True), anyio.move_on_after(PROGRESS_SEND_TIMEOUT):
                try:
                    await sender
                except Exception:
                    pass
    return _text_result(outcome.text(), outcome.structured())


def build_server(state: BridgeState, flagged: Flagged | None = None) -> Server[Any]:
    async def list_tools(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=t.name, title=t.title, description=t.description, input_schema=t.input_schema,
                       output_schema=t.output_schema) for t in TOOLS])

    async def call_tool(ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        unreadable = flagged.take(ctx.request_id) if flagged is not None else None
        if unreadable is not None:  # its text was repaired only so the SDK could parse it (textguard)
            return _error(f"invalid arguments: {unreadable}")
        try:
            args = validate(params.name, params.arguments)
        except ArgumentError as exc:
            return _error(f"invalid arguments: {exc}")
        match args:
            case RunArgs():
                if state.runs is None:
                    return _error("runs are unavailable in this bridge")
                return await _run_tool(ctx, state.runs, args)
            case StatusArgs(request_id=request_id):
                if state.runs is None:
                    return _text_result("No runs yet.", {"runs": []})
                try:
                    text, structured = state.runs.status(request_id)
                except UnknownRun:
                    return _error(UNKNOWN_RUN)
                return _text_result(text, structured)
            case ToolsArgs(query=query, view=view):
                return _text_result(*tools_result(state.tools, query, view))
            case LibrariesArgs(query=query):
                return _text_result(*libraries_result(state.libraries, query))
            case ListSkillsArgs():
                return _text_result(*state.skills.list_result())
            case ReadSkillArgs(id=skill_id):
                skill = state.skills.read(skill_id)
                if skill is None:
                    return _error(UNKNOWN)
                return _text_result(skill.text, {"id": skill.id, "name": skill.name, "text": skill.text})

    from clauz3._version import __version__

    return Server(SERVER_NAME, version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools,
                  on_call_tool=call_tool)


async def serve_stdio(state: BridgeState) -> None:
    """Serve until the client closes stdin; then stop any active run (RUN-11, `stopped`)."""
    from mcp.server.stdio import stdio_server

    flagged = Flagged()
    server = build_server(state, flagged)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(GuardedReader(read_stream, flagged), write_stream, server.create_initialization_options())
    finally:
        runs = state.runs
        if runs is not None and runs.active_request_id is not None:
            runs.cancel(None, "stopped")
