"""The host ACP client against a raw, misbehaving JSON-RPC agent (tests/sessions/fixtures/raw_agent.py)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from clauz3.sessions.agent.acp_client import OVERSIZE_DETAIL, AcpClient, AcpError
from clauz3.sessions.agent.acp_messages import (
    AgentExited,
    AgentStopped,
    AgentText,
    OtherUpdate,
    PermissionRefused,
    ToolCall,
    TurnEnded,
)
from clauz3.sessions.agent.acp_params import SessionParams, bridge_entry, initialize_params, sanitize
from clauz3.sessions.agent.acp_permissions import PermissionRule, decide
from clauz3.sessions.agent.process_group import AgentLaunch
from clauz3.sessions.agent.providers import lookup

RAW_AGENT = Path(__file__).parent / "fixtures" / "raw_agent.py"
Factory = Callable[..., AcpClient]


def rule(agent: str) -> PermissionRule:
    """The agent's PRM-2 rule, as the host takes it from the provider table."""
    return lookup(agent).permissions


def drain(client: AcpClient) -> list[Any]:
    events = []
    while not client.events.empty():
        events.append(client.events.get_nowait())
    return events


def text(blocks: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": blocks}]


def received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def raw_log(tmp_path: Path) -> Path:
    return tmp_path / "raw.jsonl"


@pytest.fixture
async def make(tmp_path: Path, raw_log: Path) -> AsyncIterator[Factory]:
    clients: list[AcpClient] = []

    def factory(provider: str = "demo", cancel_grace: float = 3.0, **env: str) -> AcpClient:
        full_env = dict(os.environ) | {"RAW_LOG": str(raw_log)} | env
        launch = AgentLaunch([sys.executable, str(RAW_AGENT)], tmp_path, full_env)
        client = AcpClient(launch, permissions=rule(provider), label="Raw", cancel_grace=cancel_grace)
        clients.append(client)
        return client

    yield factory
    for client in clients:
        await client.close()
        if client.pid is not None:
            with pytest.raises(ProcessLookupError):
                os.killpg(client.pid, 0)  # the whole group is gone


async def ready(make: Factory, **kw: Any) -> AcpClient:
    client = make(**kw)
    await client.start()
    await client.new_session(SessionParams("/project", ()))
    return client


async def test_initialize_frame_has_no_capabilities(make: Factory, raw_log: Path) -> None:
    client = make()
    info = await client.start()
    first = received(raw_log)[0]["in"]
    assert first["method"] == "initialize"
    assert first["params"] == initialize_params()
    assert "clientCapabilities" not in first["params"]
    assert info.capabilities.load_session is True


@pytest.mark.parametrize(
    ("mode", "message"),
    [("v2", "Raw speaks ACP version 2; clauz3 needs version 1."), ("badcaps", "Invalid ACP initialize result.")],
)
async def test_bad_initialize_ends_adapter(make: Factory, mode: str, message: str) -> None:
    client = make(RAW_INIT=mode)
    with pytest.raises(AcpError) as err:
        await client.start()
    assert str(err.value) == message and err.value.ended
    assert not client.alive


async def test_stderr_flood_does_not_block_initialize(make: Factory) -> None:
    client = make(RAW_STDERR_MB="5")
    info = await client.start()
    assert info.capabilities.load_session


async def test_chunks_in_order_and_updates_outside_turn_dropped(make: Factory) -> None:
    client = await ready(make)
    assert drain(client) == []  # the chunk sent before the session/new response is outside a turn
    ended = await client.prompt(text("chunks 500"))
    events = drain(client)
    assert [e.chunk for e in events if isinstance(e, AgentText)] == [f"c{i};" for i in range(500)]
    assert events[-1] == ended == TurnEnded("end_turn")
    await client.prompt(text("outside"))
    chunks = [e.chunk for e in drain(client) if isinstance(e, AgentText)]
    assert chunks == ["inside"]  # "late" came after the prompt response


async def test_garbage_is_ignored_and_unknown_kinds_kept(make: Factory) -> None:
    client = await ready(make)
    ended = await client.prompt(text("garbage"))
    events = drain(client)
    assert ended.stop_reason == "end_turn"
    assert [e.chunk for e in events if isinstance(e, AgentText)] == ["ok"]
    assert [e.kind for e in events if isinstance(e, OtherUpdate)] == ["brand_new_kind"]


async def test_client_methods_are_refused(make: Factory, raw_log: Path) -> None:
    client = await ready(make)
    await client.prompt(text("fs"))
    answers = {e["answer"]: e["response"] for e in received(raw_log) if "answer" in e}
    for method in ("fs/read_text_file", "terminal/create", "_clauz3/secret"):
        assert answers[method]["error"]["code"] == -32601
    assert answers["fs/read_text_file"]["error"]["message"] == "Client capability disabled"


async def test_permission_rule(make: Factory, raw_log: Path) -> None:
    client = await ready(make)
    await client.prompt(text("perm"))
    answers = [e["response"]["result"] for e in received(raw_log) if e.get("answer") == "session/request_permission"]
    assert answers[0] == {"outcome": {"outcome": "selected", "optionId": "once"}}  # correlated, allow_once
    assert all(a == {"outcome": {"outcome": "cancelled"}} for a in answers[1:])
    events = drain(client)
    refused = [e.tool_call_id for e in events if isinstance(e, PermissionRefused)]
    assert refused.count("t2") == 1 and refused.count("t3") == 1
    assert refused.count("t1") == 1  # the allow_always-only request, and the foreign session's, once
    calls = {e.tool_call_id: e.tool for e in events if isinstance(e, ToolCall)}
    assert calls == {"t1": "run", "t2": None, "t3": None}


async def test_permission_outside_turn_and_previous_turn_ids(make: Factory) -> None:
    client = await ready(make)
    await client.prompt(text("perm"))
    request = {"sessionId": "raw-session", "toolCall": {"toolCallId": "t1"},
               "options": [{"optionId": "once", "kind": "allow_once"}]}
    assert decide(rule("demo"), request, live_session_id="raw-session", turn_open=False, announced={"t1": "run"}) == {
        "outcome": {"outcome": "cancelled"}
    }
    assert decide(rule("demo"), request, live_session_id="raw-session", turn_open=True, announced={})["outcome"] == {
        "outcome": "cancelled"
    }


def test_permission_provider_identities() -> None:
    options = [{"optionId": "a", "kind": "allow_always"}, {"optionId": "o", "kind": "allow_once"}]
    base = {"sessionId": "s", "toolCall": {"toolCallId": "x"}, "options": options}
    ok = {"outcome": {"outcome": "selected", "optionId": "o"}}
    assert decide(rule("claude"), base, live_session_id="s", turn_open=True, announced={"x": "run"}) == ok
    evil = base | {"toolCall": {"toolCallId": "x", "_meta": {"claudeCode": {"toolName": "mcp__evil__run"}}}}
    assert decide(rule("claude"), evil, live_session_id="s", turn_open=True, announced={"x": "run"})["outcome"]["outcome"] == "cancelled"
    assert decide(rule("codex"), base, live_session_id="s", turn_open=True, announced={"x": "run"})["outcome"]["outcome"] == "cancelled"
    codex = base | {"_meta": {"is_mcp_tool_approval": True}}
    assert decide(rule("codex"), codex, live_session_id="s", turn_open=True, announced={"x": "run"}) == ok
    assert decide(rule("opencode"), base, live_session_id="s", turn_open=True, announced={"x": "run"})["outcome"]["outcome"] == "cancelled"
    many = base | {"options": options * 17}
    assert decide(rule("demo"), many, live_session_id="s", turn_open=True, announced={"x": "run"})["outcome"]["outcome"] == "cancelled"
    not_list = base | {"options": {}}
    assert decide(rule("demo"), not_list, live_session_id="s", turn_open=True, announced={"x": "run"})["outcome"]["outcome"] == "cancelled"


async def test_no_response(make: Factory) -> None:
    client = await ready(make)
    assert await client.prompt(text("silent")) == TurnEnded("end_turn", no_response=True)


async def test_cancel_reported_even_if_agent_says_end_turn(make: Factory, raw_log: Path) -> None:
    client = await ready(make)
    turn = asyncio.create_task(client.prompt(text("cancel-endturn")))
    while not any(e.get("in", {}).get("method") == "session/prompt" for e in received(raw_log)):
        await asyncio.sleep(0.01)
    await client.cancel()
    ended = await turn
    assert ended == TurnEnded("cancelled")
    assert any(e.get("in", {}).get("method") == "session/cancel" for e in received(raw_log))
    assert client.alive and (await client.prompt(text("chunks 1"))).stop_reason == "end_turn"


async def test_agent_ignoring_cancel_is_killed_after_grace(make: Factory) -> None:
    client = await ready(make, cancel_grace=0.2)
    pid = client.pid
    turn = asyncio.create_task(client.prompt(text("hang")))
    await asyncio.sleep(0)
    await client.cancel()
    ended = await turn
    assert ended == TurnEnded("cancelled", forced=True)
    assert await asyncio.wait_for(_until(client, AgentStopped), 30) == AgentStopped(forced=True)
    assert client.events.empty()  # TurnEnded came first, then AgentStopped, nothing after
    assert not client.alive
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


async def test_second_stop_kills_at_once(make: Factory) -> None:
    client = await ready(make, cancel_grace=3600)
    turn = asyncio.create_task(client.prompt(text("hang")))
    await asyncio.sleep(0)
    await client.cancel()
    await client.cancel()
    assert (await turn).forced


async def test_unexpected_exit_mid_turn(make: Factory) -> None:
    client = await ready(make)
    ended = await client.prompt(text("exit"))
    assert ended.stop_reason == "error"
    await asyncio.wait_for(_until(client, AgentExited), 30)
    assert not client.alive
    with pytest.raises(AcpError):
        await client.prompt(text("chunks 1"))


async def test_oversize_line_ends_adapter(make: Factory) -> None:
    client = await ready(make)
    ended = await client.prompt(text("huge"))
    assert ended == TurnEnded("error", error=OVERSIZE_DETAIL)
    exited = await asyncio.wait_for(_until(client, AgentExited), 30)
    assert exited.detail == OVERSIZE_DETAIL


async def test_load_replay_is_suppressed_and_unknown_id_fails(make: Factory) -> None:
    client = make()
    await client.start()
    with pytest.raises(AcpError) as err:
        await client.load_session(SessionParams("/project", ()), "nope")
    assert err.value.code == -32002 and client.session_id is None and client.alive
    await client.load_session(SessionParams("/project", ()), "raw-session")
    await client.prompt(text("chunks 1"))
    events = drain(client)
    texts = [e.chunk for e in events if isinstance(e, AgentText)]
    assert texts == ["c0;"]  # neither "replayed" nor "replayed after"


async def _until(client: AcpClient, kind: type) -> Any:
    while True:
        event = await client.events.get()
        if isinstance(event, kind):
            return event


def test_session_params_and_bridge_entry() -> None:
    entry = bridge_entry(python="/usr/bin/python3", bridge_args=["--project", "/p"], lifetime_socket="/s",
                         ticket_file="/s.t", data_dir="/d")
    assert "type" not in entry
    assert [e["name"] for e in entry["env"]] == ["CLAUZ3_SESSION_LIFETIME_SOCKET", "CLAUZ3_BRIDGE_TICKET_FILE",
                                                 "CLAUZ3_HOME"]
    params = SessionParams("/p", (entry,), {"clauz3": {"model": None}})
    assert params.new_params() == {"cwd": "/p", "mcpServers": [entry], "_meta": {"clauz3": {"model": None}}}
    assert params.load_params("s1")["sessionId"] == "s1"
    assert "additionalDirectories" not in params.new_params()


def test_sanitize() -> None:
    env = {"ANTHROPIC_API_KEY": "sk-ant-0123456789", "SHORT_KEY": "abc", "HOME": "/home/someone"}
    message = "bad key sk-ant-0123456789\x07 abc at /home/someone" + "x" * 3000
    clean = sanitize(message, env)
    assert "sk-ant" not in clean and "[redacted]" in clean and "\x07" not in clean
    assert "abc" in clean and len(clean) == 2000
