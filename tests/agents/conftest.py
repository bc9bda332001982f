"""Fixtures: the demo agent as a real ACP subprocess, driven through the host's AcpClient,
with the fake MCP bridge of fixtures/fake_bridge.py. Every client is closed in teardown, which
kills the agent's process group; the fake bridge exits when its stdin closes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from clauz3.sessions.agent.acp_client import AcpClient
from clauz3.sessions.agent.acp_params import SessionParams
from clauz3.sessions.agent.process_group import AgentLaunch
from clauz3.sessions.agent.providers import lookup

FAKE_BRIDGE = Path(__file__).parent / "fixtures" / "fake_bridge.py"
DEMO_ARGV = [sys.executable, "-P", "-m", "clauz3.agents.demo"]


class Bridge:
    def __init__(self, tmp: Path) -> None:
        self.log = tmp / "bridge-calls.jsonl"
        self.env: dict[str, str] = {"FAKE_BRIDGE_LOG": str(self.log)}

    def entry(self) -> dict[str, Any]:
        return {
            "name": "clauz3",
            "command": sys.executable,
            "args": [str(FAKE_BRIDGE)],
            "env": [{"name": k, "value": v} for k, v in self.env.items()],
        }

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def data_home(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path


@pytest.fixture
def bridge(tmp_path: Path) -> Bridge:
    return Bridge(tmp_path)


@pytest.fixture
async def make_client(project: Path, data_home: Path) -> AsyncIterator[Callable[[], AcpClient]]:
    clients: list[AcpClient] = []

    def make() -> AcpClient:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        env["CLAUZ3_HOME"] = str(data_home)
        client = AcpClient(AgentLaunch(DEMO_ARGV, project, env), permissions=lookup("demo").permissions,
                           label="Demo")
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


def params(project: Path, *entries: dict[str, Any]) -> SessionParams:
    return SessionParams(str(project), tuple(entries))
