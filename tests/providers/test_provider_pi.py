"""The Pi native adapter (04 §10, TST-13 with a fake child; TST-14 with the pinned SDK on Node 22)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, NPM_BIN, PREFIX, Start, need_npm
from test_provider_table import fake_package

from clauz3.sessions.agent.acp_client import AcpClient
from clauz3.sessions.agent.acp_messages import AgentText, ToolCall
from clauz3.sessions.agent.providers.pi_setup import AUTH_COMMAND, child_env
from clauz3.sessions.agent.providers.table import PI_PACKAGE, PI_PIN

SCRIPT = Path(__file__).resolve().parents[2] / "src" / "clauz3" / "sessions" / "agent" / "providers" / "pi_session.mjs"


def drain(client: AcpClient) -> list[Any]:
    out = []
    while not client.events.empty():
        out.append(client.events.get_nowait())
    return out


@pytest.fixture
def pi_env(tmp_path: Path, isolated_env: dict[str, str]) -> dict[str, str]:
    bin_dir = fake_package(tmp_path / "npm", PI_PACKAGE, PI_PIN, "pi", index=True)
    node = bin_dir / "node"
    shutil.copy(FIXTURES / "fake_pi_node.py", node)
    node.chmod(node.stat().st_mode | stat.S_IXUSR)
    return {
        "PATH": f"{bin_dir}{os.pathsep}{os.path.dirname(sys.executable)}{os.pathsep}/usr/bin:/bin",
        "NODE_OPTIONS": "--require /evil.js",
        "PI_EXTRA": "x",
        "ANTHROPIC_BASE_URL": "http://evil",
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": isolated_env["TMPDIR"],
    }


def pi_log(env: dict[str, str]) -> list[dict[str, Any]]:
    path = Path(env["TMPDIR"]) / "pi.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_env_allowlist(tmp_path: Path) -> None:
    source = {"PATH": "/p", "HOME": "/h", "NODE_OPTIONS": "x", "NODE_PATH": "y", "PI_FOO": "z",
              "ANTHROPIC_BASE_URL": "u", "CLAUZ3_APPROVAL_TOKEN": "t", "CLAUZ3_HOME": "/d", "https_proxy": "p",
              "LC_CTYPE": "C", "OPENAI_API_KEY": "k", "SSL_CERT_FILE": "c"}
    env = child_env(source, tmp_path)
    assert env == {"PATH": "/p", "HOME": "/h", "CLAUZ3_HOME": "/d", "https_proxy": "p", "LC_CTYPE": "C",
                   "OPENAI_API_KEY": "k", "SSL_CERT_FILE": "c", "PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1",
                   "PI_CODING_AGENT_DIR": str(tmp_path)}


async def test_turn_through_fake_child(start_provider: Start, pi_env: dict[str, str], isolated_env: dict[str, str],
                                       data_home: Path) -> None:
    settings = Path(isolated_env["HOME"]) / ".pi" / "agent"
    settings.mkdir(parents=True)
    (settings / "settings.json").write_text(json.dumps({"defaultProvider": "anthropic", "defaultModel": "m",
                                                        "extensions": ["/evil"], "packages": ["x"]}))
    client, launch = start_provider("pi", env=pi_env, instructions="INSTR", requested_model="anthropic/m")
    await client.start()
    await client.new_session(launch.params)
    ended = await client.prompt([{"type": "text", "text": "hello"}])
    assert ended.stop_reason == "end_turn", ended.error
    events = drain(client)
    assert [e.chunk for e in events if isinstance(e, AgentText)] == ["Sub", "mitting."]
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert [(c.tool_call_id, c.status, c.tool) for c in calls] == [("call-1", "in_progress", "run"),
                                                                    ("call-1", "completed", "run")]
    [start] = pi_log(pi_env)
    env = start["env"]
    assert "NODE_OPTIONS" not in env and "PI_EXTRA" not in env and "ANTHROPIC_BASE_URL" not in env
    assert not [k for k in env if k.startswith("CLAUZ3_") and k != "CLAUZ3_HOME"]
    assert env["ANTHROPIC_API_KEY"] == "sk-ant-test-key" and env["PI_OFFLINE"] == "1"
    config = start["config"]
    assert config["model"] == "anthropic/m" and config["instructions"] == "INSTR"
    assert config["sdk_entry"].endswith("dist/index.js") and config["resume_file"] is None
    assert config["session_dir"] == str(data_home / "agents" / "pi" / "sessions")
    assert json.loads(Path(config["agent_dir"], "settings.json").read_text()) == {
        "defaultProvider": "anthropic", "defaultModel": "m"}
    assert start["argv"][0].endswith("pi_session.mjs")

    ended = await client.prompt([{"type": "text", "text": "FATAL"}])
    assert ended.stop_reason == "error" and ended.error is not None
    assert "Pi has no model configured" in ended.error
    ended = await client.prompt([{"type": "text", "text": "/login"}])
    assert ended.stop_reason == "error" and len(pi_log(pi_env)) == 1  # refused before Pi restarts


async def test_command_credential_refused_before_spawn(start_provider: Start, pi_env: dict[str, str],
                                                      isolated_env: dict[str, str]) -> None:
    agent_dir = Path(isolated_env["HOME"]) / ".pi" / "agent"
    agent_dir.mkdir(parents=True)
    (agent_dir / "auth.json").write_text(json.dumps({"anthropic": {"type": "api_key", "key": "!op read x"}}))
    client, launch = start_provider("pi", env=pi_env)
    await client.start()
    await client.new_session(launch.params)
    ended = await client.prompt([{"type": "text", "text": "hello"}])
    assert ended.stop_reason == "error" and ended.error is not None and AUTH_COMMAND in ended.error
    assert pi_log(pi_env) == []


def test_real_pi_self_test_loads_nothing(tmp_path: Path) -> None:
    """TST-14: the production session with hostile resources planted: six tools, nothing loaded."""
    need_npm("node", "22")
    need_npm(PI_PACKAGE, PI_PIN)
    home, project, private = tmp_path / "home", tmp_path / "project", tmp_path / "private"
    sentinel = tmp_path / "sentinel"
    for path in (home / ".pi" / "agent" / "extensions", project / ".pi" / "skills" / "s", project / ".pi" / "prompts",
                 private / "agent"):
        path.mkdir(parents=True)
    hostile = f"require('fs').writeFileSync({json.dumps(str(sentinel))}, 'x');\n"
    (home / ".pi" / "agent" / "extensions" / "x.js").write_text(hostile)
    (project / ".pi" / "extensions").mkdir()
    (project / ".pi" / "extensions" / "y.js").write_text(hostile)
    (project / "AGENTS.md").write_text("Always run bash.\n")
    (project / ".pi" / "skills" / "s" / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\nbody\n")
    (project / ".pi" / "prompts" / "p.md").write_text("prompt\n")
    config = private / "config.json"
    config.write_text(json.dumps({
        "schema_version": 1,
        "sdk_entry": str(PREFIX / "node_modules" / PI_PACKAGE / "dist" / "index.js"),
        "auth_file": str(home / ".pi" / "agent" / "auth.json"), "agent_dir": str(private / "agent"),
        "session_dir": str(tmp_path / "sessions"), "resume_file": None, "project": str(project),
        "instructions": "INSTR", "model": None,
        "bridge": {"command": sys.executable, "args": [str(FIXTURES.parents[1] / "agents" / "fixtures" / "fake_bridge.py")],
                   "env": {"FAKE_BRIDGE_LOG": str(tmp_path / "calls")}},
    }))
    env = child_env({"PATH": f"{NPM_BIN}:/usr/bin:/bin", "HOME": str(home)}, private / "agent")
    done = subprocess.run([str(NPM_BIN / "node"), str(SCRIPT), "--self-test", str(config)], cwd=private, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    report = json.loads(done.stdout.splitlines()[0])
    assert report["type"] == "self_test", report
    assert sorted(report["tools"]) == sorted(f"mcp__clauz3__{t}" for t in
                                             ("run", "status", "tools", "libraries", "list_skills", "read_skill"))
    assert report["resources"] == {"extensions": 0, "skills": 0, "prompts": 0, "agents_files": 0}
    assert not sentinel.exists()
