"""The demo's MCP connection to the session's clauz3 bridge (04 DEMO-3), over the official client.

The bridge's pipes (:mod:`.bridge_transport`) and the ``ClientSession`` context belong to one background task (anyio cancel
scopes must be left by the task that entered them); calls come from turn tasks and are plain
awaits on the shared session. Closing sets an event; the holder task then leaves both contexts,
which closes the server's stdin and ends its process group.

:meth:`BridgeConnection.start` returns at once (issue 13: the session exists while its bridge
starts, in parallel with the host's page); the first :meth:`~BridgeConnection.call` waits for the
connection and, when it failed, raises :class:`BridgeUnavailable` with the reason. The bridge is
spawned first; the MCP SDK (about 0.65 s of imports) is then loaded off the event loop while the
bridge loads its own side.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import mcp_client
from .bridge_transport import BridgeProcess

if TYPE_CHECKING:
    from mcp.client.session import ClientSession


UNAVAILABLE = "The clauz3 tools are unavailable"
SIX_TOOLS = frozenset({"run", "status", "tools", "libraries", "list_skills", "read_skill"})
START_TIMEOUT_SECONDS = 60.0

ProgressCallback = Callable[[float, float | None, str | None], Awaitable[None]]


class BridgeUnavailable(Exception):
    """The bridge failed to start, initialize, or list exactly the six tools."""


@dataclass(frozen=True)
class StdioEntry:
    name: str
    command: str
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ToolResult:
    text: str
    structured: dict[str, Any] | None
    is_error: bool


class BridgeConnection:
    def __init__(self, entry: StdioEntry, cwd: str) -> None:
        self._entry = entry
        self._cwd = cwd
        self._session: ClientSession | None = None
        self._closing = asyncio.Event()
        self._holder: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[None] | None = None
        self._failure: BridgeUnavailable | None = None

    def start(self) -> None:
        """Start connecting in the background (the caller does not wait)."""
        self._ready = asyncio.get_running_loop().create_future()
        self._holder = asyncio.create_task(self._hold(self._ready), name="demo.bridge")

    async def open(self) -> None:
        """Start and wait until the bridge is initialized and lists the six tools."""
        self.start()
        try:
            await self.wait_ready()
        except BaseException:
            await self.close()
            raise

    async def wait_ready(self) -> None:
        """Wait for the connection; :class:`BridgeUnavailable` (with the reason) when it failed."""
        if self._failure is not None:
            raise self._failure
        ready = self._ready
        if ready is None:
            raise BridgeUnavailable("the connection to the clauz3 tools was never started")
        try:
            await asyncio.wait_for(asyncio.shield(ready), START_TIMEOUT_SECONDS)
        except TimeoutError:
            self._failure = BridgeUnavailable(f"it did not start within {START_TIMEOUT_SECONDS:g} s")
            raise self._failure from None
        except BridgeUnavailable as exc:
            self._failure = exc
            raise

    async def _hold(self, ready: asyncio.Future[None]) -> None:
        try:
            entry = self._entry
            # Spawned before the SDK is imported: the bridge loads its side on the other core meanwhile.
            bridge = await BridgeProcess.spawn(entry.command, entry.args, dict(entry.env), self._cwd)
            try:
                await asyncio.to_thread(mcp_client.load)  # the SDK's imports, on a worker thread
            except BaseException:
                await asyncio.shield(bridge.stop())
                raise
            from mcp.client.session import ClientSession

            async with bridge.streams() as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    listing = await session.list_tools()
                    names = {tool.name for tool in listing.tools}
                    if names != SIX_TOOLS:
                        raise BridgeUnavailable("it offers " + (", ".join(sorted(names)) or "no tools"))
                    self._session = session
                    ready.set_result(None)
                    await self._closing.wait()
        except BaseException as exc:
            if not ready.done():
                reason = _ours(exc) or BridgeUnavailable(_describe(exc))
                self._failure = reason
                ready.set_exception(reason)
                ready.exception()  # kept in _failure: a session that never calls a tool logs nothing
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            self._session = None

    async def call(
        self, tool: str, arguments: dict[str, Any], progress: ProgressCallback | None = None
    ) -> ToolResult:
        await self.wait_ready()
        from mcp_types import TextContent  # loaded by the holder before it was ready

        session = self._session
        if session is None:
            raise BridgeUnavailable("the connection to the clauz3 tools has ended")
        result = await session.call_tool(
            tool, arguments, progress_callback=progress  # type: ignore[arg-type]  # mcp's ProgressFnT names the callback's parameters; any positional (float, float|None, str|None) coroutine works
        )
        texts = [block.text for block in result.content if isinstance(block, TextContent)]  # the "text" blocks
        structured = result.structured_content if isinstance(result.structured_content, dict) else None
        return ToolResult("\n".join(texts), structured, bool(result.is_error))

    async def close(self) -> None:
        self._closing.set()
        holder = self._holder
        if holder is None or holder.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(holder), 5.0)
        except TimeoutError:
            holder.cancel()
        except BaseException:
            pass


def _ours(exc: BaseException) -> BridgeUnavailable | None:
    """Our own reason, also when anyio's task group wrapped it in an exception group."""
    if isinstance(exc, BridgeUnavailable):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _ours(inner)
            if found is not None:
                return found
    return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in exc.exceptions)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
