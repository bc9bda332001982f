"""What a provider's before-session step (``Provider.before_session``, 04 CDX-3) may use of the host's
ACP client: a protocol, so a provider's step is typed on what it uses, not on the whole client.
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
