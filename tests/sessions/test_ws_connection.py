"""WebSocket connection rules (02 WS-1..7, AUTH-9) and the bounded queue (WS-10..12)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import websockets
from sessions_harness import Harness, recv, recv_until, signed_in, state_is

from clauz3.sessions.conversation.publisher import Publisher, Subscriber


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path) as harness:
        yield harness


async def closed_with(ws: websockets.ClientConnection) -> tuple[int, str]:
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code is not None
    return ws.close_code, ws.close_reason or ""


@pytest.mark.parametrize(("kw", "reason"), [({"cookie": False}, "Not signed in"), ({"origin": None}, "Origin not allowed"),
                                            ({"origin": "http://evil.example"}, "Origin not allowed")])
async def test_unauthorized_socket_closes_1008(svc: Harness, kw: dict, reason: str) -> None:
    ws = await svc.ws(**kw)
    assert await closed_with(ws) == (1008, reason)


async def test_second_tab_and_takeover(svc: Harness) -> None:
    first = await svc.ws()
    await recv(first)
    second = await svc.ws()
    assert await closed_with(second) == (1013, "Workspace open in another tab")
    third = await svc.ws(takeover=True)
    assert (await recv(third))["method"] == "clauz3/restore"
    code, reason = await closed_with(first)
    assert (code, reason) == (1013, "Workspace moved to another tab")
    await third.close()


async def test_huge_and_binary_frames(svc: Harness) -> None:
    ws = await svc.ws()
    await recv(ws)
    await ws.send("x" * 100_001)
    assert await closed_with(ws) == (1009, "Message too large (limit 100 KB)")
    ws = await svc.ws()
    await recv(ws)
    await ws.send(b"\x00\x01")
    assert await closed_with(ws) == (1003, "Text frames only")


async def test_idle_socket_gets_no_state_frames(svc: Harness) -> None:
    ws = await svc.ws()
    await recv(ws)
    await recv_until(ws, state_is(agent_status="ready"))
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(ws.recv(), 0.8)
    await ws.close()


async def test_overflow_restores_once_then_exactly_once() -> None:
    history: list[dict] = []
    publisher = Publisher(lambda: {"history": list(history), "state": {"n": len(history)}}, lambda: {"n": len(history)})
    subscriber = Subscriber()
    publisher.attach(subscriber)
    for i in range(1000):
        frame = {"method": "session/update", "params": {"i": i}}
        history.append(frame)  # retained events are stored first, then queued
        publisher.send(frame)
    delivered: list[dict] = []
    while subscriber.frames:
        delivered.append(await subscriber.next())
    restores = [f for f in delivered if f["method"] == "clauz3/restore"]
    assert len(restores) == 1
    seen = [f["params"]["i"] for f in restores[0]["params"]["history"]]
    seen += [f["params"]["i"] for f in delivered if f["method"] == "session/update"]
    assert seen == list(range(1000))


async def test_fuzzed_frames_never_break_the_socket(svc: Harness) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    ws = await svc.ws()
    await recv(ws)
    values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                          max_size=3), max_leaves=8)
    frames = st.one_of(st.text(max_size=200), values.map(json.dumps),
                       st.fixed_dictionaries({"method": st.sampled_from(
                           ["session/prompt", "session/cancel", "clauz3/rename", "clauz3/select", "clauz3/attach",
                            "clauz3/new", "fs/read_text_file", "x"]), "params": values}).map(json.dumps))
    sent: list[str] = []

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(frames)
    def collect(text: str) -> None:
        sent.append(text)

    collect()
    for text in sent:
        await ws.send(text)
    await ws.send(json.dumps({"method": "nope", "params": {}}))
    frame, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice"
                                and f["params"]["code"] == "unsupported_method", timeout=30)
    assert frame["params"]["level"] == "error"
    await ws.close()
