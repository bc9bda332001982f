"""The real pinned claude-agent-acp through the host's launch path (04 TST-5, asserting only the
restriction flags of 00 DEC-12). No credentials, no network: ``initialize`` and ``session/new``
work without sign-in; the spawned ``claude`` CLI's argv is captured by a wrapper."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest
from conftest import PREFIX, Bridge, Start, need_npm

from clauz3.sessions.agent.providers import claude
from clauz3.sessions.agent.providers.table import CLAUDE_ACP_PACKAGE, CLAUDE_ACP_PIN


def real_claude_cli() -> Path:
    sdk = PREFIX / "node_modules" / "@anthropic-ai"
    found = sorted(sdk.glob("claude-agent-sdk-*/claude"))
    if not found:
        pytest.fail(f"{CLAUDE_ACP_PACKAGE}@{CLAUDE_ACP_PIN} has no bundled claude CLI in {PREFIX}")
    return found[0]


def wrapper(tmp_path: Path) -> tuple[Path, Path, Path]:
    argv_file, env_file = tmp_path / "claude-argv", tmp_path / "claude-env"
    script = tmp_path / "claude-wrapper"
    script.write_text(
        "#!/bin/sh\n"
        f"printf '%s\\0' \"$@\" > '{argv_file}.tmp' && mv '{argv_file}.tmp' '{argv_file}'\n"
        f"env > '{env_file}'\n"
        f"exec '{real_claude_cli()}' \"$@\"\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, argv_file, env_file


async def wait_for(path: Path, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not path.exists():
        assert loop.time() < deadline, f"{path.name} did not appear within {timeout:g} s"
        await asyncio.sleep(0.1)


async def test_claude_session_spawns_restricted_cli(
    start_provider: Start, bridge: Bridge, tmp_path: Path, project: Path
) -> None:
    need_npm(CLAUDE_ACP_PACKAGE, CLAUDE_ACP_PIN)
    script, argv_file, env_file = wrapper(tmp_path)
    client, launch = start_provider(
        "claude", env={"CLAUDE_CODE_EXECUTABLE": str(script)}, instructions="clauz3 instructions first line"
    )
    info = await client.start()
    assert info.capabilities.load_session
    session = await client.new_session(launch.params)
    assert session.session_id

    await wait_for(argv_file)
    argv = argv_file.read_bytes().split(b"\0")[:-1]
    args = [a.decode() for a in argv]
    assert claude.restriction_flags_ok(args) == [], args
    # Never the bypass flags, whatever else the adapter adds.
    assert "--dangerously-skip-permissions" not in args
    assert "--allow-dangerously-skip-permissions" not in args

    cli_env = dict(line.split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)
    assert cli_env.get("ENABLE_TOOL_SEARCH") == "false"
    assert not [name for name in cli_env if name.startswith("CLAUZ3_APPROVAL")]
    assert "CLAUZ3_BRIDGE_TICKET" not in cli_env and "CLAUZ3_SESSION_LIFETIME_SOCKET" not in cli_env

    started = await bridge.wait_started()
    assert started["cwd"] == str(project)
    assert os.path.realpath(started["argv"][0]).endswith("marked_bridge.py")
