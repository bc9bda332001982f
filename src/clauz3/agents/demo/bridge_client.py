"""The demo's MCP connection to the session's clauz3 bridge (04 DEMO-3), over the official client.

The ``stdio_client`` and ``ClientSession`` contexts belong to one background task (anyio cancel
scopes must be left by the task that entered them); calls come from turn tasks and are plain
awaits on the shared session. Closing sets an event; the holder task then leaves both contexts,
which closes the server's stdin and ends its process group.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

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
        self._params = StdioServerParameters(
            command=entry.command, args=list(entry.args), env=dict(entry.env), cwd=cwd
        )
        self._session: ClientSession | None = None
        self._closing = asyncio.Event()
        self._holder: asyncio.Task[None] | None = None

    async def open(self) -> None:
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._holder = asyncio.create_task(self._hold(ready), name="demo.bridge")
        try:
            await asyncio.wait_for(asyncio.shield(ready), START_TIMEOUT_SECONDS)
        except BaseException:
            await self.close()
            raise

    async def _hold(self, ready: asyncio.Future[None]) -> None:
        try:
            async with stdio_client(self._params, errlog=sys.stderr) as (read, write):
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
                reason = exc if isinstance(exc, BridgeUnavailable) else BridgeUnavailable(_describe(exc))
                ready.set_exception(reason)
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            self._session = None

    async def call(
        self, tool: str, arguments: dict[str, Any], progress: ProgressCallback | None = None
    ) -> ToolResult:
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


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in exc.exceptions)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
