"""04 NAT-3 acceptance: a native session mapping made by ``agy`` and loaded by ``pi``, or loaded by ``agy`` for
another project → ``-32602``, and no native child (``agy`` or ``node``) is started. The adapters are the real
native adapters driven by the real host ACP client; ``agy`` and ``node`` are logging stand-ins on PATH."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from clauz3.sessions.agent.acp_client import AcpClient, AcpError
from clauz3.sessions.agent.providers import build_launch, lookup
from clauz3.sessions.agent.providers.availability import python_adapter_argv
from clauz3.sessions.agent.providers.launch import ProviderLaunch, remove_private_dir
from clauz3.sessions.agent.providers.protocol import NativeProvider

FIXTURES = Path(__file__).resolve().parents[1] / "providers" / "fixtures"
FAKE_NODE = """#!/bin/sh
echo "$@" >> "$FAKE_NODE_LOG"
exit 1
"""


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "agy").symlink_to(FIXTURES / "fake_agy.py")
    (FIXTURES / "fake_agy.py").chmod((FIXTURES / "fake_agy.py").stat().st_mode | stat.S_IXUSR)
    (bin_dir / "node").write_text(FAKE_NODE)
    (bin_dir / "node").chmod(0o755)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    projects = {}
    for name in ("a", "b"):
        projects[name] = (tmp_path / f"project-{name}").resolve()
        projects[name].mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")} | {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "FAKE_AGY_LOG": str(tmp_path / "agy.log"),
        "FAKE_AGY_FIXTURES": str(FIXTURES), "FAKE_NODE_LOG": str(tmp_path / "node.log"), "TMPDIR": str(tmp_path)}
    bridge = {"name": "clauz3", "command": sys.executable, "args": [str(FIXTURES / "marked_bridge.py")],
              "env": [{"name": "CLAUZ3_SESSION_LIFETIME_SOCKET", "value": str(tmp_path / "no.sock")},
                      {"name": "CLAUZ3_BRIDGE_TICKET", "value": "ticket-for-test"},
                      {"name": "CLAUZ3_HOME", "value": str(data)},
                      {"name": "MARKED_BRIDGE_DIR", "value": str(tmp_path)}]}
    return {"env": env, "data": data, "projects": projects, "bridge": bridge, "tmp": tmp_path}


Start = Callable[..., tuple[AcpClient, ProviderLaunch]]


def native_module(agent: str) -> str:
    """The native adapter module the provider table names for ``agent`` (pi, agy)."""
    provider = lookup(agent)
    assert isinstance(provider, NativeProvider), agent
    return provider.adapter_module


@pytest.fixture
async def start(world: dict[str, Any]) -> AsyncIterator[Start]:
    made: list[tuple[AcpClient, ProviderLaunch]] = []

    def factory(agent: str, project: str, *, restricted: bool) -> tuple[AcpClient, ProviderLaunch]:
        launch = build_launch(agent, project=world["projects"][project], bridge_entry=world["bridge"],
                              data_dir=world["data"], adapter_argv=python_adapter_argv(native_module(agent)),
                              base_env=world["env"], tmp_root=world["tmp"], restricted=restricted,
                              instructions="INSTR")
        client = AcpClient(launch.launch, permissions=lookup(agent).permissions, label=agent)
        made.append((client, launch))
        return client, launch

    yield factory
    for client, launch in made:
        await client.close()
        remove_private_dir(launch.private_dir)


def log_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


async def test_native_mapping_of_another_agent_or_project_is_refused_before_any_child(
        world: dict[str, Any], start: Start) -> None:
    agy_log, node_log = world["tmp"] / "agy.log", world["tmp"] / "node.log"
    first, launch = start("agy", "a", restricted=False)
    await first.start()
    await first.new_session(launch.params)
    session_id = first.session_id
    assert session_id is not None
    assert (await first.prompt([{"type": "text", "text": "hello"}])).stop_reason == "end_turn"
    await first.close()
    mapping = world["data"] / "agents" / "native-sessions" / f"{session_id}.json"
    assert json.loads(mapping.read_text())["agent"] == "agy"
    starts = [x for x in log_lines(agy_log) if "argv" in x]
    assert len(starts) == 1

    as_pi, pi_launch = start("pi", "a", restricted=True)
    await as_pi.start()
    with pytest.raises(AcpError) as refused:
        await as_pi.load_session(pi_launch.params, session_id)
    assert refused.value.code == -32602 and "belongs to another agent/project/mode" in str(refused.value)

    elsewhere, other_launch = start("agy", "b", restricted=False)
    await elsewhere.start()
    with pytest.raises(AcpError) as refused:
        await elsewhere.load_session(other_launch.params, session_id)
    assert refused.value.code == -32602 and "belongs to another agent/project/mode" in str(refused.value)

    assert [x for x in log_lines(agy_log) if "argv" in x] == starts  # no agy child for either refusal
    assert not node_log.exists()  # and no node child for pi

    # control: the owner itself loads the same mapping (so the refusals above were about the owner only)
    owner, owner_launch = start("agy", "a", restricted=False)
    await owner.start()
    await owner.load_session(owner_launch.params, session_id)
    assert owner.session_id == session_id
