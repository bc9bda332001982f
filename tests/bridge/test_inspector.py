"""The bridge under the MCP Inspector's CLI (04 TST-11; 00 DEC-11: Node 22 from .cache/test-npm)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from npm_prefix import NODE, PREFIX

from clauz3.sessions.agent.providers.table import INSPECTOR_PIN as INSPECTOR_VERSION

from .conftest import bridge_args
from .fakehost import FakeHost

INSPECTOR = PREFIX / "node_modules" / "@modelcontextprotocol" / "inspector"


def _inspector_entry() -> Path | None:
    try:
        manifest = json.loads((INSPECTOR / "package.json").read_text())
    except (OSError, ValueError):
        return None
    if manifest.get("version") != INSPECTOR_VERSION or not NODE.exists():
        return None
    return INSPECTOR / manifest["bin"]["mcp-inspector"]


ENTRY = _inspector_entry()  # tests/conftest.py installed both before the session; None is a broken install


@pytest.fixture(autouse=True)
def _installed() -> None:
    if ENTRY is None:
        pytest.fail(f"@modelcontextprotocol/inspector@{INSPECTOR_VERSION} and node@22 are not installed in "
                    f"{PREFIX} (run scripts/install_adapters.sh)")


def _launcher(tmp_path: Path, project: Path) -> Path:
    """An executable that execs the bridge, so the Inspector parses no dash-prefixed server argument."""
    script = tmp_path / "clauz3-bridge"
    args = " ".join(f"'{a}'" for a in bridge_args(project))
    script.write_text(f"#!/bin/sh\nexec '{sys.executable}' {args}\n")
    script.chmod(0o700)
    return script


def _inspect(tmp_path: Path, launcher: Path, host: FakeHost, *method: str) -> subprocess.CompletedProcess[str]:
    assert ENTRY is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(HOME=str(tmp_path), MCP_CATALOG_PATH=str(tmp_path / "catalog.json"),
               PATH=f"{NODE.parent}{os.pathsep}{env.get('PATH', '')}")
    # Each inspector call starts its own bridge, so each is a start with its own ticket (one handshake each).
    server_env = {**host.env(host.mint()), "CLAUZ3_HOME": os.environ["CLAUZ3_HOME"]}
    argv = [str(NODE), str(ENTRY), "--cli", str(launcher)]
    for key, value in server_env.items():
        argv += ["-e", f"{key}={value}"]
    return subprocess.run([*argv, *method], capture_output=True, text=True, timeout=120, env=env,
                          cwd=str(tmp_path))


def test_inspector_lists_six_tools_and_calls_them(tmp_path: Path, project: Path, host: FakeHost) -> None:
    launcher = _launcher(tmp_path, project)
    listing = _inspect(tmp_path, launcher, host, "--method", "tools/list")
    assert listing.returncode == 0, listing.stderr[-2000:]
    tools = json.loads(listing.stdout)["tools"]
    assert sorted(t["name"] for t in tools) == sorted(["run", "status", "tools", "libraries", "list_skills",
                                                       "read_skill"])
    assert all("inputSchema" in t and "outputSchema" in t for t in tools)

    status = _inspect(tmp_path, launcher, host, "--method", "tools/call", "--tool-name", "status")
    assert status.returncode == 0, status.stderr[-2000:]
    assert "No runs yet." in status.stdout

    found = _inspect(tmp_path, launcher, host, "--method", "tools/call", "--tool-name", "tools",
                     "--tool-arg", "query=send")
    assert found.returncode == 0, found.stderr[-2000:]
    assert "send_email" in found.stdout

    missing = _inspect(tmp_path, launcher, host, "--method", "tools/call", "--tool-name", "read_skill",
                       "--tool-arg", "id=nope")
    assert missing.returncode == 5, (missing.returncode, missing.stdout[-1000:], missing.stderr[-1000:])
    assert json.loads(missing.stdout)["isError"] is True
