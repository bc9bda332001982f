"""Codex through ``@agentclientprotocol/codex-acp`` (04 §7): env additions and sign-in.

Codex has no restricted mode in clauz3 (unrestricted only). It starts in ``read-only`` so native
writes and commands ask permission, which the host refuses (PRM-1); the bridge comes only from
the ACP ``mcpServers`` entry, never from ``CODEX_CONFIG`` (so it starts once).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

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


async def before_session(client: SessionClient) -> str | None:
    """CDX-3 as Codex's before-session hook: sign in with the API key in the adapter's environment, when
    there is one and the adapter offers ``api-key``; otherwise rely on an existing ``codex login``."""
    if client.info is None or not should_authenticate(client.launch.env, client.info.auth_methods):
        return None
    await client.authenticate(API_KEY_METHOD)
    return API_KEY_METHOD
