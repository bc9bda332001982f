"""The agy native adapter (04 §9, §11, TST-13) against a fake `agy` replaying recorded stream-json."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, Start

from clauz3.sessions.agent.acp_client import AcpClient, AcpError
from clauz3.sessions.agent.acp_messages import AgentText, ToolCall, TurnEnded
from clauz3.sessions.agent.providers.agy_adapter import DENIED

TEXT = "hello"


def blocks(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


def drain(client: AcpClient) -> list[Any]:
    out = []
    while not client.events.empty():
        out.append(client.events.get_nowait())
    return out


@pytest.fixture
def agy_env(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "agybin"
    bin_dir.mkdir()
    (bin_dir / "agy").symlink_to(FIXTURES / "fake_agy.py")
    (FIXTURES / "fake_agy.py").chmod((FIXTURES / "fake_agy.py").stat().st_mode | stat.S_IXUSR)
    return {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "FAKE_AGY_LOG": str(tmp_path / "agy.log"),
        "FAKE_AGY_FIXTURES": str(FIXTURES),
    }


def agy_log(env: dict[str, str]) -> list[dict[str, Any]]:
    path = Path(env["FAKE_AGY_LOG"])
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def started(start_provider: Start, env: dict[str, str], model: str | None = "gemini-x") -> AcpClient:
    client, launch = start_provider("agy", env=env, restricted=False, instructions="INSTR", requested_model=model)
    info = await client.start()
    assert info.capabilities.load_session and not info.capabilities.images and not info.capabilities.files
    await client.new_session(launch.params)
    return client


async def test_turn_maps_stream_to_acp(start_provider: Start, agy_env: dict[str, str], data_home: Path,
                                       project: Path) -> None:
    client = await started(start_provider, agy_env)
    ended = await client.prompt(blocks("please run"))
    assert ended.stop_reason == "end_turn" and not ended.no_response
    events = drain(client)
    texts = [e.chunk for e in events if isinstance(e, AgentText)]
    assert texts == ["Let me ", "submit a program.", " Done."]  # one chunk per delta, no repeated final answer
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert [(c.tool_call_id, c.update, c.status, c.tool) for c in calls] == [
        ("1:1", False, "in_progress", "run"),
        ("1:1", True, "completed", "run"),
        ("1:2", False, "failed", None),
    ]
    start, user = agy_log(agy_env)[:2]
    assert start["argv"] == ["--input-format", "stream-json", "--output-format", "stream-json",
                             "--disable-slash-commands", "--model", "gemini-x"]
    assert start["mcp_mode"] == "0o600"
    server = start["mcp_config"]["mcpServers"]["clauz3"]
    assert server["env"]["CLAUZ3_BRIDGE_TICKET"] == "ticket-for-test"
    assert Path(start["cwd"]).name == "workspace" and not start["cwd"].startswith(str(project))
    assert user["user"] == "INSTR\n\nUser request:\nplease run"  # instructions prefix the first turn only
    [mapping] = list((data_home / "agents" / "native-sessions").glob("*.json"))
    record = json.loads(mapping.read_text())
    assert record["native_id"] == "conv-1111" and record["agent"] == "agy" and record["restricted"] is False
    assert mapping.stat().st_mode & 0o777 == 0o600

    ended = await client.prompt(blocks("QUIET please"))
    assert ended.stop_reason == "end_turn"
    assert [e.chunk for e in drain(client) if isinstance(e, AgentText)] == ["Only a final answer."]
    assert agy_log(agy_env)[-1] == {"user": "QUIET please"}


async def test_denied_actions_and_failure_are_safe_errors(start_provider: Start, agy_env: dict[str, str]) -> None:
    client = await started(start_provider, agy_env, model=None)
    ended = await client.prompt(blocks("DENIED"))
    assert ended.stop_reason == "error" and ended.error is not None and DENIED in ended.error
    ended = await client.prompt(blocks("FAILED"))
    assert ended.stop_reason == "error" and ended.error is not None
    assert "Antigravity could not finish the turn (status ERROR)." in ended.error
    assert "secret internal detail" not in ended.error


async def test_cancel_ends_child_and_next_prompt_resumes_conversation(
    start_provider: Start, agy_env: dict[str, str]
) -> None:
    client = await started(start_provider, agy_env, model=None)
    assert (await client.prompt(blocks("hi"))).stop_reason == "end_turn"
    import asyncio

    turn = asyncio.create_task(client.prompt(blocks("SLOW")))
    seen = False
    for _ in range(1500):  # a loaded machine may take seconds to start the child
        if any(isinstance(e, AgentText) and e.chunk == "thinking" for e in drain(client)):
            seen = True
            break
        await asyncio.sleep(0.02)
    assert seen, "the slow turn never started"
    await client.cancel()
    ended = await asyncio.wait_for(turn, 60)
    assert isinstance(ended, TurnEnded) and ended.stop_reason == "cancelled" and not ended.forced
    # The next prompt may reach the adapter while it is still reaping the cancelled child.
    assert (await asyncio.wait_for(client.prompt(blocks("again")), 60)).stop_reason == "end_turn"
    starts = [r for r in agy_log(agy_env) if "argv" in r]
    assert len(starts) == 2
    assert starts[1]["argv"][-2:] == ["--conversation", "conv-1111"]


async def test_session_requirements(start_provider: Start, agy_env: dict[str, str]) -> None:
    client, launch = start_provider("agy", env=agy_env, restricted=False)
    await client.start()
    no_meta = type(launch.params)(launch.params.cwd, launch.params.mcp_servers, None)
    with pytest.raises(AcpError) as caught:
        await client.new_session(no_meta)
    assert caught.value.code == -32602
    client2, launch2 = start_provider("agy", env=agy_env, restricted=False)
    await client2.start()
    with pytest.raises(AcpError) as caught:
        await client2.load_session(launch2.params, "6f1c2d9e-0b7a-4c1e-9a51-3f0c2e4b5a6d")
    assert caught.value.code == -32002
