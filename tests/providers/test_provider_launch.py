"""Adapter argv, environment and session parameters per provider (04 SUP-2/3, ACP-4..8, §6–§11),
and model selection (MDL-1..3)."""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from acp.connection import Connection

from clauz3.sessions.agent.acp_client import AcpClient, AcpError
from clauz3.sessions.agent.providers import build_launch, models, remove_private_dir, validate_model
from clauz3.sessions.agent.providers.claude import ALLOWED_TOOLS, options, terminal_argv
from clauz3.sessions.agent.providers.opencode import first_prompt

# Long, fixed values: a random temp-dir name can never contain them by chance.
TOKEN = "approval-token-Zq8v-never-in-agent-env"
TICKET = "bridge-ticket-Wm3x-only-in-mcp-entry"

BRIDGE = {
    "name": "clauz3",
    "command": sys.executable,
    "args": ["-P", "-m", "clauz3.bridge", "--project", "/p"],
    "env": [
        {"name": "CLAUZ3_SESSION_LIFETIME_SOCKET", "value": "/tmp/s/life.sock"},
        {"name": "CLAUZ3_BRIDGE_TICKET", "value": TICKET},
        {"name": "CLAUZ3_HOME", "value": "/data"},
    ],
}
BASE_ENV = {
    "PATH": "/usr/bin",
    "HOME": "/home/u",
    "CLAUZ3_APPROVAL_TOKEN": TOKEN,
    "CLAUZ3_UI_CONFIG": "x",
    "CLAUZ3_HOME": "/elsewhere",
    "NO_PROXY": "corp.example",
}
PROVIDERS = ["claude", "codex", "opencode", "pi", "agy", "demo"]


def launch(provider: str, tmp_path: Path, **kw: Any):  # type: ignore[no-untyped-def]
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    made = build_launch(
        provider, project=project, bridge_entry=BRIDGE, data_dir=tmp_path / "data",
        adapter_argv=["/abs/adapter"], instructions="INSTRUCTIONS", base_env=BASE_ENV, tmp_root=tmp_path, **kw,
    )
    return made


@pytest.mark.parametrize("provider", PROVIDERS)
def test_env_and_params_shape(provider: str, tmp_path: Path) -> None:
    made = launch(provider, tmp_path, requested_model="m1")
    try:
        env = made.launch.env
        allowed = {"CLAUZ3_HOME"} | ({"CLAUZ3_AGENT_PRIVATE_DIR"} if provider in ("pi", "agy") else set())
        assert {k for k in env if k.startswith("CLAUZ3_")} == allowed
        assert env["CLAUZ3_HOME"] == str((tmp_path / "data").resolve())
        assert env["NO_PROXY"] == "corp.example,127.0.0.1,localhost"
        assert env["no_proxy"] == "127.0.0.1,localhost"
        assert TOKEN not in json.dumps(env) and TICKET not in json.dumps(env)
        params = made.params.new_params()
        assert params["cwd"] == str((tmp_path / "proj").resolve())
        assert "additionalDirectories" not in params
        [server] = params["mcpServers"]
        assert server["name"] == "clauz3" and "type" not in server
        assert [e["name"] for e in server["env"]] == [
            "CLAUZ3_SESSION_LIFETIME_SOCKET", "CLAUZ3_BRIDGE_TICKET", "CLAUZ3_HOME",
        ]
        assert made.params.load_params("sid")["sessionId"] == "sid"
        assert made.params.load_params("sid")["_meta" if made.params.meta else "cwd"] is not None
        if provider == "claude":
            assert params["_meta"] == {"claudeCode": {"options": options("INSTRUCTIONS")}}
        elif provider in ("pi", "agy"):
            assert params["_meta"] == {"clauz3": {"model": "m1", "instructions": "INSTRUCTIONS", "restricted": True}}
            assert made.private_dir is not None and made.private_dir.is_dir()
            assert made.private_dir.stat().st_mode & 0o777 == 0o700
            assert env["CLAUZ3_AGENT_PRIVATE_DIR"] == str(made.private_dir)
        else:
            assert "_meta" not in params
            assert made.private_dir is None
    finally:
        remove_private_dir(made.private_dir)


def test_claude_options_are_exactly_cld1(tmp_path: Path) -> None:
    made = launch("claude", tmp_path)
    opts = made.params.new_params()["_meta"]["claudeCode"]["options"]
    assert opts == {
        "tools": [],
        "allowedTools": [
            "mcp__clauz3__run", "mcp__clauz3__status", "mcp__clauz3__tools", "mcp__clauz3__libraries",
            "mcp__clauz3__list_skills", "mcp__clauz3__read_skill",
        ],
        "settingSources": [],
        "strictMcpConfig": True,
        "allowDangerouslySkipPermissions": False,
        "plugins": [],
        "settings": {"disableAllHooks": True, "disableClaudeAiConnectors": True, "enabledPlugins": {}},
        "extraArgs": {"disable-slash-commands": None, "no-chrome": None},
        "promptSuggestions": False,
        "systemPrompt": {"type": "preset", "preset": "claude_code", "append": "INSTRUCTIONS"},
    }
    for forbidden in ("permissionMode", "mcpServers", "additionalDirectories", "pathToClaudeCodeExecutable",
                      "executable", "hooks", "agents", "skills", "resume", "env"):
        assert forbidden not in opts
    assert made.launch.env["ENABLE_TOOL_SEARCH"] == "false"
    assert made.launch.env["ENABLE_CLAUDEAI_MCP_SERVERS"] == "false"


def test_codex_and_opencode_env(tmp_path: Path) -> None:
    codex = launch("codex", tmp_path, restricted=False).launch.env
    assert codex["NO_BROWSER"] == "1" and codex["INITIAL_AGENT_MODE"] == "read-only"
    assert json.loads(codex["CODEX_CONFIG"]) == {"developer_instructions": "INSTRUCTIONS"}
    opencode = launch("opencode", tmp_path, restricted=False)
    assert json.loads(opencode.launch.env["OPENCODE_CONFIG_CONTENT"]) == {"permission": {"clauz3_*": "allow"}}
    assert opencode.first_prompt_instructions == "INSTRUCTIONS"
    assert first_prompt("I", "do it") == "I\n\nUser request:\ndo it"


def test_argv_is_wrapped_and_absolute(tmp_path: Path) -> None:
    made = launch("demo", tmp_path, wrap=["/py", "-P", "-m", "clauz3.sessions.agent.supervisor", "7", "--"], pass_fds=(7,))
    assert list(made.launch.argv) == ["/py", "-P", "-m", "clauz3.sessions.agent.supervisor", "7", "--", "/abs/adapter"]
    assert made.launch.pass_fds == (7,)
    with pytest.raises(ValueError, match="absolute"):
        build_launch("demo", project=tmp_path, bridge_entry=BRIDGE, data_dir=tmp_path, adapter_argv=["adapter"])
    with pytest.raises(ValueError, match="type"):
        build_launch("demo", project=tmp_path, bridge_entry={**BRIDGE, "type": "stdio"}, data_dir=tmp_path,
                     adapter_argv=["/a"])
    with pytest.raises(KeyError, match="unknown agent"):
        build_launch("gpt", project=tmp_path, bridge_entry=BRIDGE, data_dir=tmp_path, adapter_argv=["/a"])


def test_terminal_argv_restricted_and_not() -> None:
    argv = terminal_argv("/bin/claude", session_id="u-1", entry=BRIDGE, instructions="I", restricted=True,
                         prompt="--hi")
    assert argv[:3] == ["/bin/claude", "--session-id", "u-1"]
    assert "--setting-sources=" in argv and "--tools=" in argv and "--strict-mcp-config" in argv
    assert "--allowedTools=" + ",".join(ALLOWED_TOOLS) in argv
    assert argv[-2:] == ["--", "--hi"]
    config = json.loads(argv[argv.index("--mcp-config") + 1])
    assert list(config["mcpServers"]) == ["clauz3"]
    assert config["mcpServers"]["clauz3"]["env"]["CLAUZ3_BRIDGE_TICKET"] == TICKET
    loose = terminal_argv("/bin/claude", session_id="u-1", entry=BRIDGE, instructions="I", restricted=False,
                          resume=True)
    assert loose[:3] == ["/bin/claude", "--resume", "u-1"]
    assert "--tools=" not in loose and "--settings" not in loose and "--append-system-prompt" in loose


@pytest.mark.parametrize("bad", ["a b", "x" * 201, "", "a;b", "é"])
def test_invalid_models(bad: str) -> None:
    with pytest.raises(ValueError, match="invalid --model value"):
        validate_model(bad)


def test_valid_models() -> None:
    for good in ("sonnet", "gpt-5.1[high]", "opencode/grok-code", "x" * 200, "a@b:c+d"):
        assert validate_model(good) == good


class FakeClient:
    """What apply_model uses of AcpClient: session_id, request_raw, close."""

    def __init__(self, fail: dict[str, int] | None = None) -> None:
        self.session_id = "s-1"
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.closed = False
        self._fail = fail or {}

    async def request_raw(self, method: str, params: dict[str, Any], timeout: float = 30.0) -> Any:
        self.sent.append((method, params))
        if method in self._fail:
            raise AcpError("Method not found", code=self._fail[method])
        return {}

    async def close(self) -> None:
        self.closed = True


GROUPED = {
    "configOptions": [
        {"id": "mode", "category": "mode", "currentValue": "build", "options": [{"value": "build"}]},
        {"id": "model", "category": "model", "currentValue": "a/one",
         "options": [{"group": "a", "name": "A", "options": [{"value": "a/one"}, {"value": "a/two"}]},
                     {"value": "b/three"}]},
    ]
}


async def test_listed_model_uses_set_config_option() -> None:
    client = FakeClient()
    assert await models.apply_model(client, "claude", GROUPED, "a/two") == "a/two"  # type: ignore[arg-type]
    assert client.sent == [("session/set_config_option", {"sessionId": "s-1", "configId": "model", "value": "a/two"})]


async def test_unlisted_model_uses_raw_set_model_and_refusal_lists_values() -> None:
    client = FakeClient(fail={"session/set_model": -32601})
    with pytest.raises(models.ModelUnavailable) as caught:
        await models.apply_model(client, "codex", GROUPED, "gpt[high]")  # type: ignore[arg-type]
    assert client.sent == [("session/set_model", {"sessionId": "s-1", "modelId": "gpt[high]"})]
    assert str(caught.value) == "model gpt[high] isn't available; choose one of: a/one, a/two, b/three"
    assert client.closed and caught.value.ended


async def test_no_requested_model_or_native_provider_sends_nothing() -> None:
    client = FakeClient()
    assert await models.apply_model(client, "claude", GROUPED, None) == "a/one"  # type: ignore[arg-type]
    assert await models.apply_model(client, "pi", GROUPED, "x") == "a/one"  # type: ignore[arg-type]
    assert client.sent == []
    by_category = {"configOptions": [{"id": "m", "category": "model", "currentValue": "z", "options": []}]}
    assert models.current_model(by_category) == "z"


def test_raw_request_path_still_exists() -> None:
    """MDL-3: raw session/set_model relies on the SDK connection's generic sender; fail loudly if it moves."""
    parameters = list(inspect.signature(Connection.send_request).parameters)
    assert parameters[:3] == ["self", "method", "params"]
    assert "send_request" in inspect.getsource(AcpClient._step)
