"""The provider table, availability, modes and the default agent (04 §1, §5; 05 CLI-12)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from clauz3.sessions.agent.providers import (
    CLAUDE_FALLBACK,
    check,
    default_provider,
    enabled_in,
    mode_refusal,
)
from clauz3.sessions.agent.providers.registry import PROVIDERS
from clauz3.sessions.agent.providers.table import ROWS, TEST_NPM_SPECS

REPO = Path(__file__).resolve().parents[2]


def fake_package(root: Path, package: str, version: str, command: str, *, index: bool = False) -> Path:
    """An npm-style install: node_modules/<package>/package.json and .bin/<command> → its script."""
    pkg = root / "node_modules" / package
    (pkg / "dist").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": package, "version": version}))
    (pkg / "dist" / "package.json").write_text(json.dumps({"type": "module"}))  # nameless: skipped
    script = pkg / "dist" / ("cli.js" if index else "index.js")
    script.write_text("#!/usr/bin/env node\n")
    script.chmod(0o755)
    if index:
        (pkg / "dist" / "index.js").write_text("export {}\n")
    bin_dir = root / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    (bin_dir / command).symlink_to(script)
    return bin_dir


def fake_node(root: Path, version: str) -> Path:
    bin_dir = root / "nodebin"
    bin_dir.mkdir()
    node = bin_dir / "node"
    node.write_text(f"#!/bin/sh\necho {version}\n")
    node.chmod(0o755)
    return bin_dir


def test_install_script_installs_exactly_the_table_pins() -> None:
    script = (REPO / "scripts" / "install_adapters.sh").read_text()
    listed = re.findall(r'"((?:@[a-z0-9._-]+/)?[a-z0-9._-]+@[0-9][0-9.]*)"', script)
    assert sorted(listed) == sorted(TEST_NPM_SPECS)


def test_claude_pinned_available(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@agentclientprotocol/claude-agent-acp", "0.101.0", "claude-agent-acp")
    found = check("claude", path=f"{bin_dir}:{fake_node(tmp_path, 'v22.3.0')}")
    assert found.available and found.warning == ""
    assert found.argv == (str(bin_dir / "claude-agent-acp"),)
    assert os.path.isabs(found.argv[0])


def test_claude_on_node_20_is_a_warning_not_a_refusal(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@agentclientprotocol/claude-agent-acp", "0.101.0", "claude-agent-acp")
    found = check("claude", path=f"{bin_dir}:{fake_node(tmp_path, 'v20.20.2')}")
    assert found.available
    assert "v20.20.2" in found.warning and found.hint == found.warning


def test_claude_other_version_is_unavailable_naming_the_pin(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@agentclientprotocol/claude-agent-acp", "0.100.0", "claude-agent-acp")
    found = check("claude", path=str(bin_dir))
    assert not found.available
    assert found.reason == "clauz3 needs @agentclientprotocol/claude-agent-acp 0.101.0, found 0.100.0"
    assert found.hint == "npm install -g @agentclientprotocol/claude-agent-acp@0.101.0"


def test_missing_claude_gives_the_exact_npm_command(tmp_path: Path) -> None:
    found = check("claude", path=str(tmp_path))
    assert not found.available
    assert found.error_line("Claude") == (
        "Claude can't start: claude-agent-acp is not on PATH. Install it with: "
        "npm install -g @agentclientprotocol/claude-agent-acp@0.101.0"
    )


def test_old_zed_codex_acp_is_refused(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@zed-industries/codex-acp", "0.5.0", "codex-acp")
    found = check("codex", path=str(bin_dir))
    assert not found.available
    assert "@zed-industries/codex-acp" in found.reason
    assert found.hint == "npm install -g @agentclientprotocol/codex-acp@2.6.0"


def test_codex_and_opencode_other_versions_stay_available_with_a_note(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@agentclientprotocol/codex-acp", "2.7.0", "codex-acp")
    fake_package(tmp_path, "opencode-ai", "1.19.0", "opencode")
    codex = check("codex", path=str(bin_dir))
    assert codex.available and codex.hint == "tested with 2.6.0, found 2.7.0"
    opencode = check("opencode", path=str(bin_dir))
    assert opencode.available and opencode.hint == "tested with 1.18.33, found 1.19.0"
    assert opencode.argv == (str(bin_dir / "opencode"), "acp")


def test_pi_needs_node_22_19(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@earendil-works/pi-coding-agent", "0.82.1", "pi", index=True)
    found = check("pi", path=f"{bin_dir}:{fake_node(tmp_path, 'v20.20.2')}")
    assert not found.available
    assert found.reason == (
        "Pi needs Node.js 22.19 or newer (found v20.20.2); Pi 0.82.1 crashes at startup on Node 20."
    )
    assert found.hint.startswith("npm install --prefix <dir> node@22")


def test_pi_with_node_22_19_uses_the_native_adapter(tmp_path: Path) -> None:
    import sys

    bin_dir = fake_package(tmp_path, "@earendil-works/pi-coding-agent", "0.82.1", "pi", index=True)
    found = check("pi", path=f"{bin_dir}:{fake_node(tmp_path, 'v22.19.0')}")
    assert found.available, found.reason
    assert found.argv == (sys.executable, "-P", "-m", "clauz3.sessions.agent.providers.pi_adapter")


def test_pi_other_version_is_unavailable(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@earendil-works/pi-coding-agent", "0.83.0", "pi", index=True)
    found = check("pi", path=f"{bin_dir}:{fake_node(tmp_path, 'v22.19.0')}")
    assert not found.available
    assert found.reason == "clauz3 needs @earendil-works/pi-coding-agent 0.82.1, found 0.83.0"


def test_agy_and_demo(tmp_path: Path) -> None:
    missing = check("agy", path=str(tmp_path))
    assert not missing.available
    assert missing.hint == "Install the Antigravity CLI so that `agy` is on PATH"
    agy = tmp_path / "agy"
    agy.write_text("#!/bin/sh\n")
    agy.chmod(0o755)
    assert check("agy", path=str(tmp_path)).argv[-1] == "clauz3.sessions.agent.providers.agy_adapter"
    assert check("demo", path=str(tmp_path)).available


def test_default_is_demo_with_the_cli12_notice(tmp_path: Path) -> None:
    choice = default_provider(path=str(tmp_path))
    assert choice.provider == "demo"
    assert choice.notice == CLAUDE_FALLBACK == (
        "Claude is not installed; using the Demo agent (scripted, no model). To use Claude: "
        "npm install -g @agentclientprotocol/claude-agent-acp@0.101.0"
    )
    assert choice.notice_id == "claude_not_installed"


def test_default_is_claude_when_pinned_adapter_is_installed(tmp_path: Path) -> None:
    bin_dir = fake_package(tmp_path, "@agentclientprotocol/claude-agent-acp", "0.101.0", "claude-agent-acp")
    choice = default_provider(path=str(bin_dir))
    assert choice.provider == "claude" and choice.notice is None


@pytest.mark.parametrize(
    ("agent", "unrestricted", "command", "expected"),
    [
        ("claude", True, "ui", "Claude runs restricted in the browser workspace; start without --unrestricted "
         "(clauz3 start claude --unrestricted runs its own terminal UI)"),
        ("claude", True, "start", None),
        ("codex", False, "ui", "Codex has no restricted mode in clauz3; pass --unrestricted to let it use its "
         "native tools outside clauz3 proofs and approval"),
        ("opencode", False, "start", "OpenCode has no restricted mode in clauz3; pass --unrestricted to let it "
         "use its native tools outside clauz3 proofs and approval"),
        ("agy", False, "ui", "Antigravity has no restricted mode in clauz3; pass --unrestricted to let it use "
         "its native tools outside clauz3 proofs and approval"),
        ("pi", True, "ui", "Pi runs only restricted in clauz3; start without --unrestricted"),
        ("demo", True, "ui", None),
        ("demo", False, "ui", None),
        (None, True, "ui", "--unrestricted needs an explicit agent name (codex, opencode, agy or demo)"),
        ("codex", True, "ui", None),
    ],
)
def test_mode_refusals(agent: str | None, unrestricted: bool, command: str, expected: str | None) -> None:
    assert mode_refusal(agent, unrestricted=unrestricted, command=command) == expected


def test_inventory_enabled_flags() -> None:
    assert enabled_in("claude", unrestricted=True) == (False, "Restart without --unrestricted")
    assert enabled_in("pi", unrestricted=True) == (False, "Restart without --unrestricted")
    assert enabled_in("codex", unrestricted=False) == (False, "Requires --unrestricted")
    assert enabled_in("demo", unrestricted=True) == (True, "")
    assert set(PROVIDERS) == set(ROWS) == {"claude", "codex", "opencode", "pi", "agy", "demo"}
    assert all(p.row is ROWS[name] for name, p in PROVIDERS.items())  # one class per row, looked up by id


def test_no_module_compares_agent_ids() -> None:
    """Issue 23: an agent's differences are its provider class's answers, looked up by id in the registry; no
    module of src/ compares a value with an agent id (``agent == "codex"``, ``provider in ("demo", "pi")``) or
    keys a table of its own by them (only table.py's rows are keyed so)."""
    import ast

    ids = set(ROWS)

    def names_an_id(node: ast.expr) -> bool:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return any(isinstance(item, ast.Constant) and item.value in ids for item in items)

    found = []
    for path in sorted((REPO / "src" / "clauz3").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Compare) and any(names_an_id(side) for side in [node.left, *node.comparators]):
                found.append(f"{where} {ast.unparse(node)}")
            if isinstance(node, ast.Dict) and path.name != "table.py" \
                    and any(key is not None and names_an_id(key) for key in node.keys):
                found.append(f"{where} a dict keyed by agent ids")
    assert found == []
