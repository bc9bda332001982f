"""A cancel whose child is slow to reap must not cancel the turn the host starts next (NAT-4, ACP-18)."""

from __future__ import annotations

import asyncio
from typing import Any

from acp.schema import TextContentBlock

from clauz3.sessions.agent.providers.native import NativeAgent, NativeConfig, NativeError, NativeSession


class SlowReapRuntime:
    """Turn 1 runs until aborted; abort ends it at once but reaping the child takes a while."""

    def __init__(self) -> None:
        self.native_id: str | None = None
        self.reaped = asyncio.Event()
        self.release_reap = asyncio.Event()
        self._stop = asyncio.Event()

    async def run_turn(self, text: str, emit: Any, turn: int) -> str:
        if turn == 1:
            await self._stop.wait()
            raise NativeError("the child exited")
        await asyncio.sleep(0.05)
        return "end_turn"

    async def abort(self) -> None:
        self._stop.set()  # the child is gone: its output ends and the turn fails now
        await self.release_reap.wait()  # ...while the adapter is still reaping it
        self.reaped.set()

    async def close(self) -> None:
        self._stop.set()


class Conn:
    async def session_update(self, session_id: str, update: Any) -> None:
        return None


async def test_next_turn_survives_the_previous_cancel() -> None:
    runtime = SlowReapRuntime()
    agent = NativeAgent("agy", "Antigravity", lambda config, native_id: runtime)
    agent.on_connect(Conn())
    config = NativeConfig(None, "", True, "/p", {"command": "x", "args": [], "env": {}})
    agent._sessions["s"] = NativeSession("s", config, runtime, 0.0)
    block = [TextContentBlock(type="text", text="hi")]

    first = asyncio.create_task(agent.prompt("s", block))
    await asyncio.sleep(0.01)
    cancelling = asyncio.create_task(agent.cancel("s"))
    assert (await asyncio.wait_for(first, 5)).stop_reason == "cancelled"
    second = asyncio.create_task(agent.prompt("s", block))  # the host's next prompt, before reaping ends
    await asyncio.sleep(0.01)
    runtime.release_reap.set()
    await asyncio.wait_for(cancelling, 5)
    assert (await asyncio.wait_for(second, 5)).stop_reason == "end_turn"
