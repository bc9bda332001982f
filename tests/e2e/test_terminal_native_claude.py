"""`clauz3 start claude` runs Claude Code's own terminal UI (04 CLD-7, 05 TRM-2, TRM-11, CLI-9).

A stand-in `claude` on PATH records its argv and environment and, like the real CLI, starts the
clauz3 MCP server from `--mcp-config` and lists its tools — through the real bridge, lifetime socket
and bootstrap ticket of the in-process service.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from terminal_helpers import env_for, make_project

from clauz3.sessions.agent.providers.claude import restriction_flags_ok

FAKE = """#!{python}
import asyncio, json, os, sys
if sys.argv[1:] == ["--version"]:
    print(os.environ.get("FAKE_CLAUDE_VERSION", "2.1.400") + " (Claude Code)")
    sys.exit(0)
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
argv = sys.argv
server = json.loads(argv[argv.index("--mcp-config") + 1])["mcpServers"]["clauz3"]

async def tools():
    params = StdioServerParameters(command=server["command"], args=server["args"], env=server["env"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return [t.name for t in (await session.list_tools()).tools]

names = asyncio.run(tools())
with open(os.environ["FAKE_CLAUDE_OUT"], "a") as fh:
    fh.write(json.dumps({{"argv": argv, "env": sorted(os.environ), "tools": names}}) + "\\n")
sys.exit(3)
"""


@pytest.fixture
def fake_claude(tmp_path: Path) -> tuple[dict[str, str], Path]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "claude"
    script.write_text(FAKE.format(python=sys.executable))
    script.chmod(0o755)
    out = tmp_path / "claude-calls.jsonl"
    env = env_for(tmp_path)
    env.update(PATH=f"{bin_dir}{os.pathsep}{env['PATH']}", FAKE_CLAUDE_OUT=str(out),
               CLAUZ3_APPROVAL_TOKEN="must-not-leak")
    return env, out


def run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=cwd, env=env, input="", capture_output=True,
                          text=True, timeout=120)


def test_start_and_resume_claude_terminal_ui(tmp_path: Path, fake_claude: tuple[dict[str, str], Path]) -> None:
    env, out = fake_claude
    project = make_project(tmp_path)
    first = run(env, project, "start", "claude", "--no-browser", "--prompt", "hello there")
    assert first.returncode == 3, first.stderr  # CLI-9: the agent's status
    cid = first.stderr.split("Clauz3 conversation: ", 1)[1].split()[0]
    assert f"Resume with: clauz3 resume {cid}" in first.stderr
    call = json.loads(out.read_text().splitlines()[0])
    argv = call["argv"]
    assert argv[1:3] == ["--session-id", cid] and argv[-2:] == ["--", "hello there"]
    assert restriction_flags_ok(argv) == []
    assert sorted(call["tools"]) == sorted(["run", "status", "tools", "libraries", "list_skills", "read_skill"])
    assert not [name for name in call["env"] if name.startswith("CLAUZ3_") and name != "CLAUZ3_HOME"]
    config = json.loads(argv[argv.index("--mcp-config") + 1])["mcpServers"]["clauz3"]
    assert sorted(config["env"]) == ["CLAUZ3_BRIDGE_TICKET_FILE", "CLAUZ3_HOME", "CLAUZ3_SESSION_LIFETIME_SOCKET"]
    assert "must-not-leak" not in json.dumps(call)

    listed = run(env, project, "resume", "--list")
    assert listed.stdout.startswith(f"{cid}  claude  ")
    again = run(env, project, "resume", cid, "--no-browser")
    assert again.returncode == 3, again.stderr
    resumed = json.loads(out.read_text().splitlines()[1])["argv"]
    assert resumed[1:3] == ["--resume", cid] and "--" not in resumed


def test_old_claude_cli_exits_4_naming_versions(tmp_path: Path, fake_claude: tuple[dict[str, str], Path]) -> None:
    env, _out = fake_claude
    env["FAKE_CLAUDE_VERSION"] = "2.0.1"
    project = make_project(tmp_path)
    result = run(env, project, "start", "claude", "--no-browser")
    assert result.returncode == 4
    assert result.stderr.strip() == ("error: Claude Code's terminal UI needs claude 2.1.318 or newer; found 2.0.1. "
                                     "Install it with: npm install -g @anthropic-ai/claude-code")
