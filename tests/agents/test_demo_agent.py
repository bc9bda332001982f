"""The demo agent as a real ACP subprocess, through the host's AcpClient, with the fake bridge."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_ARGV, Bridge, params

from clauz3.agents.demo import replies
from clauz3.agents.demo.programs import Modules, build
from clauz3.agents.demo.script import STARTERS, TEMPLATE_INTENTS
from clauz3.sessions.agent.acp_client import AcpClient, AcpError
from clauz3.sessions.agent.acp_messages import AgentText, PermissionRefused, ToolCall, TurnEnded

SEND_MOCK_EMAIL = next(k for k in STARTERS if k.startswith("Use the mock email library"))


def drain(client: AcpClient) -> list[Any]:
    events = []
    while not client.events.empty():
        events.append(client.events.get_nowait())
    return events


def text_of(events: list[Any]) -> str:
    return "".join(e.chunk for e in events if isinstance(e, AgentText))


def prompt(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


async def started(make_client, project: Path, bridge: Bridge | None) -> AcpClient:
    client = make_client()
    await client.start()
    entries = (bridge.entry(),) if bridge else ()
    await client.new_session(params(project, *entries))
    return client


async def test_initialize_shape(make_client) -> None:
    client = make_client()
    info = await client.start()
    assert info.capabilities.load_session is True
    assert info.capabilities.images is False and info.capabilities.files is True
    assert info.agent_name == "clauz3-demo"
    assert info.auth_methods == ()


@pytest.mark.parametrize("starter", [s for s in STARTERS if isinstance(STARTERS[s], TEMPLATE_INTENTS)])
async def test_tutorial_starter_makes_exactly_one_run_call(make_client, project, bridge, starter) -> None:
    client = await started(make_client, project, bridge)
    assert client.session_id and client.session_id.startswith("demo-")
    ended = await client.prompt(prompt(starter))
    assert ended == TurnEnded("end_turn")
    events = drain(client)
    runs = [c for c in bridge.calls() if c["tool"] == "run"]
    assert len(runs) == 1
    expected = build(STARTERS[starter], Modules.default("email" if "mail" in starter else "filesystem"))
    assert runs[0]["arguments"] == {"source": expected.source}
    run_calls = [e for e in events if isinstance(e, ToolCall) and e.tool == "run"]
    assert run_calls[0].raw_input == {"source": expected.source}
    assert run_calls[-1].status == "completed"
    assert not any(isinstance(e, PermissionRefused) for e in events)
    assert "Done: the program ran once after approval (exit code 0)." in text_of(events)
    assert events[-1] == ended


async def test_count_to_10000_streams_10000_chunks_in_order(make_client, project, bridge) -> None:
    client = await started(make_client, project, bridge)
    ended = await client.prompt(prompt("count to 10000"))
    assert ended.stop_reason == "end_turn"
    chunks = [e.chunk for e in drain(client) if isinstance(e, AgentText)]
    assert chunks == [f"{i}\n" for i in range(1, 10_001)]
    assert bridge.calls() == []


async def test_cancel_mid_stream_then_next_prompt_works(make_client, project, bridge) -> None:
    client = await started(make_client, project, bridge)
    pid = client.pid
    turn = asyncio.create_task(client.prompt(prompt("count to 1000 slowly")))
    seen = 0
    while seen < 3:
        event = await client.events.get()
        seen += isinstance(event, AgentText)
    await client.cancel()
    ended = await turn
    assert ended.stop_reason == "cancelled" and not ended.forced
    chunks = [e.chunk for e in drain(client) if isinstance(e, AgentText)]
    assert len(chunks) + seen < 1000
    again = await client.prompt(prompt("count to 3"))
    assert again == TurnEnded("end_turn")
    assert [e.chunk for e in drain(client) if isinstance(e, AgentText)] == ["1\n", "2\n", "3\n"]
    assert client.pid == pid


async def test_cancel_during_run_fails_the_tool_call(make_client, project, bridge) -> None:
    bridge.env["FAKE_BRIDGE_RUN"] = "hang"
    client = await started(make_client, project, bridge)
    turn = asyncio.create_task(client.prompt(prompt('email bob@example.com "hi"')))
    while True:
        event = await client.events.get()
        if isinstance(event, ToolCall) and event.tool == "run" and event.raw_output is not None:
            break  # the bridge reported progress: the run call is in flight
    await client.cancel()
    ended = await turn
    assert ended.stop_reason == "cancelled"
    finals = [e for e in drain(client) if isinstance(e, ToolCall) and e.tool_call_id == event.tool_call_id]
    assert finals[-1].status == "failed"
    assert (await client.prompt(prompt("help"))).stop_reason == "end_turn"


async def test_proof_failure_and_denial_sentences(make_client, project, bridge) -> None:
    bridge.env["FAKE_BRIDGE_RUN"] = "proof_failed"
    client = await started(make_client, project, bridge)
    await client.prompt(prompt('email eve@example.com "hi" only to bob@example.com'))
    events = drain(client)
    source = bridge.calls()[-1]["arguments"]["source"]
    assert "only(addresses=['bob@example.com'])" in source and "send_email('eve@example.com', 'hi')" in source
    assert "The prover refuted a guarantee, so nothing ran:" in text_of(events)
    assert [e for e in events if isinstance(e, ToolCall) and e.tool == "run"][-1].status == "failed"


async def test_missing_library_means_no_run(make_client, project, bridge) -> None:
    bridge.env["FAKE_BRIDGE_DOMAINS"] = "filesystem"
    client = await started(make_client, project, bridge)
    await client.prompt(prompt(SEND_MOCK_EMAIL))
    assert replies.missing_library("email") in text_of(drain(client))
    assert [c["tool"] for c in bridge.calls()] == ["tools"]


async def test_bad_path_explains_rule_without_tools(make_client, project, bridge) -> None:
    client = await started(make_client, project, bridge)
    for text in ("read ../etc/passwd", "list files under /"):
        await client.prompt(prompt(text))
        assert "Paths must be relative to the project folder" in text_of(drain(client))
    assert bridge.calls() == []


async def test_native_tool_is_refused(make_client, project, bridge) -> None:
    client = await started(make_client, project, bridge)
    ended = await client.prompt(prompt("try a native tool"))
    events = drain(client)
    assert ended.stop_reason == "end_turn"
    refused = [e for e in events if isinstance(e, PermissionRefused)]
    assert len(refused) == 1
    native = [e for e in events if isinstance(e, ToolCall) and e.tool_call_id == refused[0].tool_call_id]
    assert native[0].tool is None and native[-1].status == "failed"
    assert replies.NATIVE_REFUSED in text_of(events)


async def test_fallback_is_honest(make_client, project, bridge) -> None:
    client = await started(make_client, project, bridge)
    await client.prompt(prompt("please refactor my code"))
    text = text_of(drain(client))
    assert "no language model" in text
    assert bridge.calls() == []


async def test_session_without_bridge(make_client, project) -> None:
    client = await started(make_client, project, None)
    await client.prompt(prompt(SEND_MOCK_EMAIL))
    assert replies.NO_BRIDGE in text_of(drain(client))
    await client.prompt(prompt("count to 2"))
    assert text_of(drain(client)) == "1\n2\n"


async def test_bad_server_lists(make_client, project, bridge) -> None:
    client = make_client()
    await client.start()
    with pytest.raises(AcpError) as two:
        await client.new_session(params(project, bridge.entry(), bridge.entry()))
    assert two.value.code == -32602
    http = {"type": "http", "name": "other", "url": "http://127.0.0.1:1/", "headers": []}
    with pytest.raises(AcpError) as web:
        await client.new_session(params(project, bridge.entry(), http))
    assert web.value.code == -32602

async def test_session_exists_at_once_and_a_broken_bridge_is_said_at_first_use(make_client, project, bridge) -> None:
    """Issue 13 amends DEMO-3: session/new answers while its bridge starts; the first tool call waits for
    the bridge and, when it lacks the six tools, says why (DEMO-3's -32603 reason) and runs nothing."""
    client = make_client()
    await client.start()
    bridge.env["FAKE_BRIDGE_TOOLS"] = "run,status"
    await client.new_session(params(project, bridge.entry()))
    assert client.session_id and client.session_id.startswith("demo-")
    ended = await client.prompt(prompt(SEND_MOCK_EMAIL))
    assert ended.stop_reason == "end_turn"
    events = drain(client)
    assert "The clauz3 tools are unavailable: it offers run, status" in text_of(events)
    assert [e.status for e in events if isinstance(e, ToolCall)][-1] == "failed"
    assert bridge.calls() == []


async def test_prompt_sent_before_the_bridge_is_up_waits_for_it(make_client, project, bridge) -> None:
    """The first prompt, sent the moment session/new answered, is served by the bridge once it is up."""
    client = await started(make_client, project, bridge)
    ended = await client.prompt(prompt(SEND_MOCK_EMAIL))
    assert ended == TurnEnded("end_turn")
    assert [c["tool"] for c in bridge.calls()] == ["tools", "run"]
    assert "Done: the program ran once after approval (exit code 0)." in text_of(drain(client))


async def test_second_concurrent_prompt_is_refused(make_client, project, bridge) -> None:
    client = await started(make_client, project, bridge)
    turn = asyncio.create_task(client.prompt(prompt("count to 1000 slowly")))
    while not isinstance(await client.events.get(), AgentText):
        pass
    with pytest.raises(AcpError) as second:
        await client.request_raw("session/prompt", {"sessionId": client.session_id, "prompt": prompt("help")})
    assert second.value.code == -32602 and "A turn is already running" in str(second.value)
    await client.cancel()
    assert (await turn).stop_reason == "cancelled"


async def test_load_in_new_process_replays_history_but_client_keeps_none(
    make_client, project, bridge, data_home
) -> None:
    first = await started(make_client, project, bridge)
    await first.prompt(prompt("count to 2"))
    session_id = first.session_id
    await first.close()
    saved = data_home / "agents" / "demo" / "sessions" / f"{session_id}.json"
    assert saved.stat().st_mode & 0o777 == 0o600
    second = make_client()
    await second.start()
    drain(second)
    await second.load_session(params(project, bridge.entry()), session_id)
    assert drain(second) == []  # the replay arrived outside a turn and was not retained
    assert (await second.prompt(prompt("count to 1"))).stop_reason == "end_turn"
    assert text_of(drain(second)) == "1\n"
    with pytest.raises(AcpError) as unknown:
        await second.load_session(params(project, bridge.entry()), "demo-" + "0" * 32)
    assert unknown.value.code == -32002


async def test_unimplemented_methods_get_32601(make_client) -> None:
    client = make_client()
    await client.start()
    for method in ("session/set_mode", "_clauz3/anything", "authenticate"):
        with pytest.raises(AcpError) as err:
            await client.request_raw(method, {"sessionId": "x", "modeId": "y", "methodId": "z"})
        assert err.value.code == -32601


async def test_stdin_eof_exits_zero_and_bridge_ends(project, bridge, data_home) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")} | {"CLAUZ3_HOME": str(data_home)}
    proc = await asyncio.create_subprocess_exec(
        *DEMO_ARGV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=project, env=env,
        start_new_session=True,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        lines = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 2}},
            {"jsonrpc": "2.0", "id": 2, "method": "session/new",
             "params": {"cwd": str(project), "mcpServers": [bridge.entry()]}},
        ]
        for line in lines:
            proc.stdin.write((json.dumps(line) + "\n").encode())
        await proc.stdin.drain()
        init = json.loads(await proc.stdout.readline())
        assert init["result"]["protocolVersion"] == 1
        new = json.loads(await proc.stdout.readline())
        assert new["result"]["sessionId"].startswith("demo-")
        proc.stdin.close()
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
