"""04 acceptance on permissions and adapter errors, with the real host ACP client against a small raw agent
written to the test's temp dir:

- a permission request that arrives while Stop is in progress → ``cancelled`` (PRM-1 a);
- correlation by title only (``mcp__clauz3__run``, no structured identity) → ``cancelled`` (PRM-2);
- ``-32000`` on ``session/new`` → that provider's sign-in hint (ACP-21);
- an adapter error containing the value of ``ANTHROPIC_API_KEY`` is shown with ``[redacted]`` (ACP-22).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from agent_registry import register_adapter
from sessions_harness import recv, recv_until, running_service, state_is

from clauz3.sessions.agent.acp_client import AcpClient
from clauz3.sessions.agent.acp_messages import PermissionRefused, TurnEnded
from clauz3.sessions.agent.acp_params import SessionParams
from clauz3.sessions.agent.process_group import AgentLaunch
from clauz3.sessions.agent.providers import lookup

RAW = r'''
import json, os, sys
LOG = os.environ["RAW04_LOG"]
MODE = os.environ.get("RAW04_MODE", "")
SESSION = "raw04-session"
ALLOW = [{"optionId": "always", "name": "Always", "kind": "allow_always"},
         {"optionId": "once", "name": "Once", "kind": "allow_once"}]
next_id = 500

def log(entry):
    with open(LOG, "a") as fh:
        fh.write(json.dumps(entry) + "\n")

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    message = json.loads(line)
    log({"in": message})
    return message

def update(update_kind, **fields):
    send({"jsonrpc": "2.0", "method": "session/update",
          "params": {"sessionId": SESSION, "update": {"sessionUpdate": update_kind, **fields}}})

def ask(tool_call_id):
    global next_id
    next_id += 1
    send({"jsonrpc": "2.0", "id": next_id, "method": "session/request_permission",
          "params": {"sessionId": SESSION, "toolCall": {"toolCallId": tool_call_id}, "options": ALLOW}})
    while True:
        message = read()
        if message.get("id") == next_id and "method" not in message:
            log({"answer": tool_call_id, "result": message.get("result")})
            return

def prompt(message):
    text = message["params"]["prompt"][0]["text"]
    rid = message["id"]
    if text == "stop-perm":
        update("tool_call", toolCallId="t1", title="Run program", status="pending",
               _meta={"clauz3": {"tool": "run"}, "claudeCode": {"toolName": "mcp__clauz3__run"}})
        log({"announced": "t1"})
        while read().get("method") != "session/cancel":
            pass
        ask("t1")  # the request is open while the host is stopping the turn
        send({"jsonrpc": "2.0", "id": rid, "result": {"stopReason": "cancelled"}})
    elif text == "titles":
        update("tool_call", toolCallId="by-title", title="mcp__clauz3__run", status="pending", kind="other")
        update("tool_call", toolCallId="structured", title="Run", status="pending",
               _meta={"clauz3": {"tool": "run"}, "claudeCode": {"toolName": "mcp__clauz3__run"}})
        ask("by-title")
        ask("structured")
        send({"jsonrpc": "2.0", "id": rid, "result": {"stopReason": "end_turn"}})

while True:
    message = read()
    method, rid = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": 1,
              "agentCapabilities": {"loadSession": True}}})
    elif method == "session/new":
        if MODE == "auth":
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": "Authentication required"}})
        elif MODE == "leak":
            key = os.environ["ANTHROPIC_API_KEY"]
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": f"invalid x-api-key {key}"}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "result": {"sessionId": SESSION}})
    elif method == "session/prompt":
        prompt(message)
'''


def answers(log: Path) -> dict[str, Any]:
    lines = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    return {e["answer"]: e["result"] for e in lines if "answer" in e}


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    path = tmp_path / "raw04_agent.py"
    path.write_text(RAW)
    return path


@pytest.fixture
async def make(tmp_path: Path, raw: Path) -> AsyncIterator[Callable[[str], AcpClient]]:
    clients: list[AcpClient] = []

    def factory(provider_id: str) -> AcpClient:
        env = dict(os.environ) | {"RAW04_LOG": str(tmp_path / "raw04.jsonl")}
        client = AcpClient(AgentLaunch([sys.executable, str(raw)], tmp_path, env), permissions=lookup(provider_id).permissions,
                           label="Raw", cancel_grace=3.0)
        clients.append(client)
        return client

    yield factory
    for client in clients:
        await client.close()


def drain(client: AcpClient) -> list[Any]:
    out = []
    while not client.events.empty():
        out.append(client.events.get_nowait())
    return out


@pytest.mark.parametrize("provider_id", ["demo", "claude"])
async def test_permission_request_open_during_stop_is_cancelled(make: Callable[[str], AcpClient], tmp_path: Path,
                                                                provider_id: str) -> None:
    client = make(provider_id)
    await client.start()
    await client.new_session(SessionParams(str(tmp_path), ()))
    turn = asyncio.create_task(client.prompt([{"type": "text", "text": "stop-perm"}]))
    log = tmp_path / "raw04.jsonl"
    for _ in range(6000):  # up to 60 s
        if log.exists() and '"announced"' in log.read_text():
            break
        await asyncio.sleep(0.01)
    await client.cancel()
    ended = await asyncio.wait_for(turn, 30)
    assert ended == TurnEnded("cancelled")
    assert answers(log) == {"t1": {"outcome": {"outcome": "cancelled"}}}  # correlated, yet refused while stopping
    assert [e.tool_call_id for e in drain(client) if isinstance(e, PermissionRefused)] == ["t1"]
    assert client.alive


@pytest.mark.parametrize("provider_id", ["demo", "claude"])
async def test_correlation_by_title_only_is_cancelled(make: Callable[[str], AcpClient], tmp_path: Path,
                                                      provider_id: str) -> None:
    client = make(provider_id)
    await client.start()
    await client.new_session(SessionParams(str(tmp_path), ()))
    ended = await client.prompt([{"type": "text", "text": "titles"}])
    assert ended.stop_reason == "end_turn", ended
    got = answers(tmp_path / "raw04.jsonl")
    assert got["by-title"] == {"outcome": {"outcome": "cancelled"}}
    # the same request with the structured identity is allowed: only the missing identity made the difference
    assert got["structured"] == {"outcome": {"outcome": "selected", "optionId": "once"}}
    assert [e.tool_call_id for e in drain(client) if isinstance(e, PermissionRefused)] == ["by-title"]


# ------------------------------------------------------------------------ through the host (ACP-21, ACP-22)


@pytest.fixture
def raw_claude(raw: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """``claude`` in the host is the raw agent; ``demo`` stays the real demo."""

    register_adapter(monkeypatch, "claude", [sys.executable, str(raw)])
    monkeypatch.setenv("RAW04_LOG", str(tmp_path / "raw04.jsonl"))
    return raw


async def start_claude(tmp_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    svc_cm = running_service(tmp_path)
    svc = await svc_cm.__aenter__()
    try:
        await svc.login()
        ws = await svc.ws()
        await recv(ws)
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        await ws.send(json.dumps({"method": "clauz3/new", "params": {"agent": "claude"}}))
        final, seen = await recv_until(ws, lambda f: state_is(agent="claude")(f) and bool(
            (f["params"] if f["method"] == "clauz3/state" else f["params"]["state"]).get("error")), timeout=60)
        await ws.close()
    finally:
        await svc_cm.__aexit__(None, None, None)
    state = final["params"] if final["method"] == "clauz3/state" else final["params"]["state"]
    return state, seen, svc


async def test_adapter_error_with_the_api_key_is_redacted(raw_claude: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-ant-api03-qb-not-a-real-key-7f3e9a"
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    monkeypatch.setenv("RAW04_MODE", "leak")
    state, seen, _ = await start_claude(tmp_path)
    shown = json.dumps(seen)
    assert key not in shown
    assert "invalid x-api-key [redacted]" in (state.get("error") or ""), state
    assert any(f.get("method") == "clauz3/notice" and "[redacted]" in json.dumps(f) for f in seen)


async def test_auth_required_on_session_new_shows_the_sign_in_hint(raw_claude: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAW04_MODE", "auth")
    state, seen, _ = await start_claude(tmp_path)
    hint = lookup("claude").row.sign_in_hint
    assert f"it needs you to sign in: {hint}" in (state.get("error") or ""), state
    assert any(f.get("method") == "clauz3/notice" and hint in json.dumps(f) for f in seen)
