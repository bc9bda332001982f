"""Claude through ``@agentclientprotocol/claude-agent-acp`` (04 §6): restriction options and env.

The adapter merges ``_meta.claudeCode.options`` into the Agent SDK options it starts the
``claude`` CLI with; each key below becomes a CLI flag that takes a capability away (CLD-1).
Keys CLD-2 forbids are never set, so the ACP ``mcpServers`` entry is the only MCP server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from clauz3.sessions.agent.acp_permissions import PermissionRule, as_object
from clauz3.sessions.agent.providers.availability import Availability, npm_adapter
from clauz3.sessions.agent.providers.protocol import BaseProvider
from clauz3.sessions.agent.providers.table import ROWS, SIX_TOOLS

ALLOWED_TOOLS = tuple(f"mcp__clauz3__{tool}" for tool in SIX_TOOLS)
SETTINGS: dict[str, Any] = {"disableAllHooks": True, "disableClaudeAiConnectors": True, "enabledPlugins": {}}
# CLD-3: without the first the CLI hides MCP tools behind a search tool; the second keeps
# claude.ai's own connectors (more MCP servers) out.
ENV = {"ENABLE_TOOL_SEARCH": "false", "ENABLE_CLAUDEAI_MCP_SERVERS": "false"}


def options(instructions: str) -> dict[str, Any]:
    """CLD-1 exactly: a fresh dict on every call (callers may serialize or mutate it)."""
    return {
        "tools": [],
        "allowedTools": list(ALLOWED_TOOLS),
        "settingSources": [],
        "strictMcpConfig": True,
        "allowDangerouslySkipPermissions": False,
        "plugins": [],
        "settings": json.loads(json.dumps(SETTINGS)),
        "extraArgs": {"disable-slash-commands": None, "no-chrome": None},
        "promptSuggestions": False,
        "systemPrompt": {"type": "preset", "preset": "claude_code", "append": instructions},
    }


def meta(instructions: str) -> dict[str, Any]:
    """``_meta`` of ``session/new`` and ``session/load`` for claude (ACP-8)."""
    return {"claudeCode": {"options": options(instructions)}}


class ClaudePermissions:
    """PRM-2 for Claude: the tool is ``_meta.claudeCode.toolName`` = ``mcp__clauz3__<tool>``."""

    def announced_tool(self, update: dict[str, Any]) -> str | None:
        name = as_object(as_object(update.get("_meta")).get("claudeCode")).get("toolName")
        if isinstance(name, str) and name.startswith("mcp__clauz3__"):
            tool = name.removeprefix("mcp__clauz3__")
            return tool if tool in SIX_TOOLS else None
        return None

    def request_matches(self, params: dict[str, Any], tool_call: dict[str, Any], tool: str) -> bool:
        meta = as_object(tool_call.get("_meta"))
        if "claudeCode" in meta and "toolName" in as_object(meta["claudeCode"]):
            return bool(meta["claudeCode"]["toolName"] == f"mcp__clauz3__{tool}")
        return True


class ClaudeProvider(BaseProvider):
    """Claude (04 §6): restricted in the browser, its own terminal UI under ``clauz3 start`` (CLD-7)."""

    row = ROWS["claude"]
    permissions: PermissionRule = ClaudePermissions()
    sets_model = True
    own_terminal = True

    def availability(self, path: str | None = None) -> Availability:
        return npm_adapter(self.row, path, node_warning=True)

    def env(self, instructions: str) -> dict[str, str]:
        return dict(ENV)

    def session_meta(
        self, *, instructions: str, requested_model: str | None, restricted: bool
    ) -> dict[str, Any] | None:
        return meta(instructions)

    def mode_refusal(self, *, unrestricted: bool, command: str) -> str | None:
        if unrestricted and command != "start":
            return (
                "Claude runs restricted in the browser workspace; start without --unrestricted "
                "(clauz3 start claude --unrestricted runs its own terminal UI)"
            )
        return None  # `start claude --unrestricted` is Claude Code's own terminal UI, unrestricted


def mcp_config(entry: Mapping[str, Any]) -> dict[str, Any]:
    """CLD-7's ``--mcp-config`` JSON from the ACP bridge entry (env list → object)."""
    env = {item["name"]: item["value"] for item in entry.get("env", [])}
    return {
        "mcpServers": {
            "clauz3": {"type": "stdio", "command": entry["command"], "args": list(entry.get("args", [])), "env": env}
        }
    }


def terminal_argv(
    claude: str,
    *,
    session_id: str,
    entry: Mapping[str, Any],
    instructions: str,
    restricted: bool,
    resume: bool = False,
    prompt: str | None = None,
) -> list[str]:
    """``clauz3 start claude`` (CLD-7): Claude Code's own terminal UI, restricted or not.

    ``claude`` is the absolute CLI path; run it with :data:`ENV` added. Slash commands stay on:
    the terminal user is the operator. ``--`` always precedes the prompt text.
    """
    argv = [claude, "--resume" if resume else "--session-id", session_id]
    if restricted:
        argv += [
            "--setting-sources=", "--tools=", "--allowedTools=" + ",".join(ALLOWED_TOOLS), "--strict-mcp-config",
        ]
    argv += ["--mcp-config", json.dumps(mcp_config(entry), separators=(",", ":"))]
    if restricted:
        argv += ["--settings", json.dumps(SETTINGS, separators=(",", ":"))]
    argv += ["--append-system-prompt", instructions]
    if prompt is not None:
        argv += ["--", prompt]
    return argv


def restriction_flags_ok(argv: Sequence[str]) -> list[str]:
    """The DEC-12 subset of TST-5 on a captured CLI argv: problems found (empty = restricted).

    Accepts ``--flag=value`` and ``--flag value``. Used by the real-adapter test and usable as a
    diagnostic; it asserts only setting sources, tools, allowed tools and strict MCP config.
    """
    problems: list[str] = []
    values = _flag_values(argv)
    if values.get("--setting-sources") != [""]:
        problems.append(f"--setting-sources is {values.get('--setting-sources')!r}, want one empty value")
    if values.get("--tools") != [""]:
        problems.append(f"--tools is {values.get('--tools')!r}, want one empty value")
    allowed = values.get("--allowedTools") or values.get("--allowed-tools")
    if allowed is None or len(allowed) != 1 or sorted(t for t in allowed[0].split(",") if t) != sorted(ALLOWED_TOOLS):
        problems.append(f"--allowedTools is {allowed!r}, want exactly the six clauz3 tools")
    if "--strict-mcp-config" not in argv:
        problems.append("--strict-mcp-config is missing")
    return problems


_VALUED = ("--setting-sources", "--tools", "--allowedTools", "--allowed-tools", "--mcp-config", "--settings")


def _flag_values(argv: Sequence[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    items = list(argv)
    i = 0
    while i < len(items):
        arg = items[i]
        name, eq, value = arg.partition("=")
        if name in _VALUED:
            if not eq:
                # `--tools ""` or `--tools` followed by another flag (an empty list).
                nxt = items[i + 1] if i + 1 < len(items) else None
                if nxt is not None and not nxt.startswith("--"):
                    value = nxt
                    i += 1
                else:
                    value = ""
            found.setdefault(name, []).append(value)
        i += 1
    return found
