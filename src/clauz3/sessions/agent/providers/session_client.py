"""What a per-agent before-session hook may use of the host's ACP client (04 CDX-3).

Its own module, below both the hook table (``session_hooks``) and each agent's hook (``codex``), so
neither imports the other for it.
"""

from __future__ import annotations

from typing import Protocol

from clauz3.sessions.agent.acp_messages import AgentInfo
from clauz3.sessions.agent.process_group import AgentLaunch


class SessionClient(Protocol):
    """The part of :class:`~clauz3.sessions.agent.acp_client.AcpClient` a hook uses."""

    launch: AgentLaunch
    info: AgentInfo | None

    async def authenticate(self, method_id: str, timeout: float = ...) -> None: ...
