"""The launch's demo adapter started before the service's imports (issue 13), with the real demo,
the real supervisor and the host's own ACP client: adopted only when the launch is identical."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from pathlib import Path

from clauz3.sessions.agent import prespawn
from clauz3.sessions.agent.acp_client import AcpClient
from clauz3.sessions.agent.process_group import AgentLaunch
from clauz3.sessions.agent.providers import build_launch, check, lookup
from clauz3.sessions.launch.config import LaunchConfig

ENTRY = {"name": "clauz3", "command": "/bin/false", "args": [], "env": []}  # never started: these tests send no session/new


def config(tmp_path: Path, agent: str = "demo") -> LaunchConfig:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    data = tmp_path / "data"
    data.mkdir(mode=0o700, exist_ok=True)
    return LaunchConfig(agent=agent, project=str(project), data_dir=str(data), tmp_dir=str(tmp_path), port=1,
                        login_token="x")


def launch_as_the_conversation_builds_it(cfg: LaunchConfig, read_fd: int) -> AgentLaunch:
    """What ConversationRuntime.start_agent builds for this launch (same helper, same arguments)."""
    return build_launch(cfg.agent, project=cfg.project, bridge_entry=ENTRY, data_dir=Path(cfg.data_dir),
                        adapter_argv=check(cfg.agent).argv, instructions="", wrap=prespawn.supervisor_wrap(read_fd),
                        pass_fds=(read_fd,), tmp_root=cfg.tmp_dir).launch


def test_identical_launch_adopts_the_waiting_adapter_and_it_answers_initialize(tmp_path: Path) -> None:
    cfg = config(tmp_path)

    async def scenario() -> tuple[bool, str | None]:
        await prespawn.start(cfg)
        taken = prespawn.take("demo")
        assert taken is not None and prespawn.take("demo") is None  # handed over once
        launch = launch_as_the_conversation_builds_it(cfg, taken.read_fd)
        process = await taken.adopt(launch)
        client = AcpClient(launch, permissions=lookup("demo").permissions, label="Demo")
        try:
            info = await client.start(process=process)
            return process is not None and client.pid == taken.process.pid, info.agent_name
        finally:
            await client.close()
            os.close(taken.read_fd)
            os.close(taken.write_fd)

    assert asyncio.run(scenario()) == (True, "clauz3-demo")


def test_a_different_launch_kills_the_waiting_adapter(tmp_path: Path) -> None:
    cfg = config(tmp_path)

    async def scenario() -> tuple[bool, int | None]:
        await prespawn.start(cfg)
        taken = prespawn.take("demo")
        assert taken is not None
        launch = launch_as_the_conversation_builds_it(cfg, taken.read_fd)
        other = dataclasses.replace(launch, env={**launch.env, "LANG": "C.other"})
        adopted = await taken.adopt(other)
        os.close(taken.read_fd)
        os.close(taken.write_fd)
        return adopted is None, taken.process.returncode

    refused, code = asyncio.run(scenario())
    assert refused and code is not None  # ended, not left running


def test_another_agent_first_discards_it_and_other_agents_are_not_prespawned(tmp_path: Path) -> None:
    async def scenario() -> tuple[bool, int | None, bool]:
        await prespawn.start(config(tmp_path))
        waiting = prespawn._waiting
        assert waiting is not None
        assert prespawn.take("codex") is None  # the first conversation runs another agent
        await asyncio.gather(*prespawn._discarding)
        await prespawn.start(config(tmp_path, agent="claude"))
        return prespawn._waiting is None, waiting.process.returncode, prespawn.take("claude") is None

    gone, code, none = asyncio.run(scenario())
    assert gone and code is not None and none
