"""WebSocket protocol and turns against the real demo agent (02 §4, §5)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sessions_harness import Harness, recv, recv_until, signed_in, state_is


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path) as harness:
        yield harness


async def test_first_frame_is_restore_then_agent_ready(svc: Harness) -> None:
    ws = await svc.ws()
    first = await recv(ws)
    assert first["method"] == "clauz3/restore"
    assert set(first["params"]) >= {"history", "state"}
    await recv_until(ws, state_is(agent_status="ready"))
    await ws.close()


async def test_hello_turn_is_retained_and_titled(svc: Harness) -> None:
    ws = await svc.ws()
    restore = await recv(ws)
    cid = restore["params"]["state"]["conversation_id"]
    await recv_until(ws, state_is(agent_status="ready"))
    await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "hello"}}))
    user, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/user")
    assert user["params"]["turn"] == 1 and user["params"]["text"] == "hello"
    end, seen = await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end")
    assert end["params"] == {"turn": 1, "stop_reason": "end_turn"}
    # The page gets its own versioned JSON for agent updates, never the ACP frame (issue 15).
    agent = [f for f in seen if f["method"] == "clauz3/agent"]
    assert agent and all(f["params"]["v"] == 1 and "jsonrpc" not in f for f in agent)
    assert "".join(f["params"]["text"] for f in agent if f["params"]["kind"] == "text")
    await recv_until(ws, state_is(title="hello", agent_status="ready", turn=1))
    history = svc.host.store.history(cid)
    assert next(f["method"] for f in history) == "clauz3/user"
    assert history[-1]["method"] == "clauz3/turn_end"
    await ws.close()


@pytest.mark.parametrize("raw", ["not json", "[]", '{"method": 5}', '{"method": "x", "params": []}'])
async def test_bad_frames_keep_the_socket(svc: Harness, raw: str) -> None:
    ws = await svc.ws()
    await recv(ws)
    await ws.send(raw)
    frame, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
    assert frame["params"]["code"] == "bad_frame"
    await ws.send(json.dumps({"method": "session/new", "params": {"cwd": "/"}}))
    frame, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
    assert frame["params"]["code"] == "unsupported_method"
    await ws.close()


async def test_prompt_refusals(svc: Harness) -> None:
    ws = await svc.ws()
    restore = await recv(ws)
    cid = restore["params"]["state"]["conversation_id"]
    await recv_until(ws, state_is(agent_status="ready"))
    for prompt, code in (("   ", "prompt_invalid"), ("x" * 20_001, "prompt_invalid"), ("/help", "slash_command")):
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": prompt}}))
        frame, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
        assert frame["params"]["code"] == code
    await ws.send(json.dumps({"method": "session/prompt", "params": {
        "conversation_id": "00000000-0000-4000-8000-000000000000", "prompt": "hi"}}))
    frame, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
    assert frame["params"]["code"] == "stale_conversation"
    await recv_until(ws, lambda f: f["method"] == "clauz3/restore")
    assert svc.host.conversation.turn == 0
    await ws.close()
