"""The bridge's process and its stdio pipes, for the demo's MCP client session (04 DEMO-3).

Why not the SDK's ``stdio_client``: it spawns the server only after the SDK is imported, and the SDK
costs the demo about 0.65 s of imports; the bridge then spends as long importing its own side. Here
the bridge is spawned first, with nothing but :mod:`asyncio`, so both imports run at once on two
cores (issue 13: a new conversation's first card waited for the two one after the other).

Once the SDK is loaded, :meth:`BridgeProcess.streams` turns the pipes into the pair of memory streams
the SDK's ``ClientSession`` reads and writes: one newline-delimited JSON-RPC message per line, parsed
by the SDK's own message adapter. Shutdown follows MCP's stdio lifecycle: close the server's stdin,
give it a grace period, then end its process group (it was started in a session of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.shared.message import SessionMessage

# What a stdio server inherits from the client's own environment; the entry's env is laid over it.
INHERITED = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
GRACE_SECONDS = 2.0
READ_CHUNK = 1 << 16


def server_environment(own: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """The bridge's environment: a few login variables of ours (never a shell function), then ``extra``."""
    env = {key: value for key in INHERITED if (value := own.get(key)) is not None and not value.startswith("()")}
    env.update(extra)
    return env


class BridgeProcess:
    """One spawned bridge; :meth:`streams` may be entered once."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    @classmethod
    async def spawn(cls, command: str, args: Sequence[str], env: Mapping[str, str], cwd: str) -> BridgeProcess:
        """Start the server in its own session (its process group is ours to end); OSError if it cannot."""
        process = await asyncio.create_subprocess_exec(
            command, *args, env=server_environment(os.environ, env), cwd=cwd,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None, start_new_session=True,
        )
        return cls(process)

    @contextlib.asynccontextmanager
    async def streams(
        self,
    ) -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception],
                             MemoryObjectSendStream[SessionMessage]]]:
        """The SDK's (read, write) streams over the pipes; leaving ends the server (needs the SDK loaded)."""
        import anyio
        from mcp.shared.message import SessionMessage

        incoming_w, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outgoing, outgoing_r = anyio.create_memory_object_stream[SessionMessage](0)
        async with anyio.create_task_group() as group:
            group.start_soon(self._pump_out, incoming_w)
            group.start_soon(self._pump_in, outgoing_r)
            try:
                yield incoming, outgoing
            finally:
                with anyio.CancelScope(shield=True):
                    await self.stop()
                group.cancel_scope.cancel()

    async def _pump_out(self, incoming_w: MemoryObjectSendStream[SessionMessage | Exception]) -> None:
        """Server stdout → parsed messages, one per line (a line that does not parse is passed on as its error)."""
        import anyio
        import mcp_types
        from mcp.shared.message import SessionMessage

        stdout = self._process.stdout
        assert stdout is not None
        buffer = b""
        async with incoming_w:
            while chunk := await stdout.read(READ_CHUNK):
                *lines, buffer = (buffer + chunk).split(b"\n")
                for line in lines:
                    if not line.strip():
                        continue
                    item: SessionMessage | Exception
                    try:
                        item = SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False))
                    except ValueError as exc:
                        item = exc
                    try:
                        await incoming_w.send(item)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return

    async def _pump_in(self, outgoing_r: MemoryObjectReceiveStream[SessionMessage]) -> None:
        """Session messages → server stdin, one JSON line each."""
        stdin = self._process.stdin
        assert stdin is not None
        async with outgoing_r:
            async for message in outgoing_r:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
                try:
                    stdin.write(data)
                    await stdin.drain()
                except (BrokenPipeError, ConnectionResetError):
                    return

    async def stop(self) -> None:
        """Close stdin, wait the grace period, then SIGTERM and at last SIGKILL the server's process group."""
        process = self._process
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)
            try:
                await asyncio.wait_for(process.wait(), GRACE_SECONDS)
                break
            except TimeoutError:
                continue
