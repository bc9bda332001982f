"""Codex through ``@agentclientprotocol/codex-acp`` (04 §7): env additions and sign-in.

Codex has no restricted mode in clauz3 (unrestricted only). It starts in ``read-only`` so native
writes and commands ask permission, which the host refuses (PRM-1); the bridge comes only from
the ACP ``mcpServers`` entry, never from ``CODEX_CONFIG`` (so it starts once).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from clauz3.sessions.agent.acp_permissions import PermissionRule, as_object
from clauz3.sessions.agent.providers.protocol import BaseProvider
from clauz3.sessions.agent.providers.table import ROWS, SIX_TOOLS

if TYPE_CHECKING:
    from clauz3.sessions.agent.providers.session_client import SessionClient

API_KEY_METHOD = "api-key"
KEY_VARIABLES = ("OPENAI_API_KEY", "CODEX_API_KEY")


def env(instructions: str) -> dict[str, str]:
    """CDX-2: what the adapter's environment gets on top of SUP-3."""
    return {
        "NO_BROWSER": "1",
        "INITIAL_AGENT_MODE": "read-only",
        "CODEX_CONFIG": json.dumps({"developer_instructions": instructions}),
    }


def should_authenticate(adapter_env: Mapping[str, str], auth_methods: Iterable[Mapping[str, Any]]) -> bool:
    """CDX-3: call ``authenticate {methodId: "api-key"}`` before ``session/new``?"""
    has_key = any(adapter_env.get(name) for name in KEY_VARIABLES)
    return has_key and any(method.get("id") == API_KEY_METHOD for method in auth_methods)


class CodexPermissions:
    """PRM-2 for Codex: the call is ``rawInput`` ``{server: "clauz3", tool}``; its request is an MCP tool approval."""

    def announced_tool(self, update: dict[str, Any]) -> str | None:
        raw = as_object(update.get("rawInput"))
        called = raw.get("tool")
        if raw.get("server") == "clauz3" and isinstance(called, str) and called in SIX_TOOLS:
            return called
        return None

    def request_matches(self, params: dict[str, Any], tool_call: dict[str, Any], tool: str) -> bool:
        return as_object(params.get("_meta")).get("is_mcp_tool_approval") is True


class CodexProvider(BaseProvider):
    """Codex (04 §7): unrestricted only, starts read-only, signs in before the first session request."""

    row = ROWS["codex"]
    permissions: PermissionRule = CodexPermissions()
    sets_model = True

    def env(self, instructions: str) -> dict[str, str]:
        return env(instructions)

    async def before_session(self, client: SessionClient) -> str | None:
        """CDX-3: sign in with the API key in the adapter's environment, when there is one and the adapter
        offers ``api-key``; otherwise rely on an existing ``codex login``."""
        if client.info is None or not should_authenticate(client.launch.env, client.info.auth_methods):
            return None
        await client.authenticate(API_KEY_METHOD)
        return API_KEY_METHOD
