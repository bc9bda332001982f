"""Per-agent steps between ``initialize`` and the first session request (04 CDX-3).

The host calls :func:`before_session` once per adapter start, after ``initialize`` answered and before
``session/new`` or ``session/load``; an agent with a step to take there registers it in
:data:`BEFORE_SESSION`. Today only Codex has one (it signs in with an API key). A failing step raises the
client's ``AcpError``, which ends the start like any other failed ACP step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from clauz3.sessions.agent.providers import codex
from clauz3.sessions.agent.providers.session_client import SessionClient

__all__ = ["BEFORE_SESSION", "Hook", "SessionClient", "before_session"]


# A hook returns the ``authMethods`` id it signed in with, or None when it took no step.
Hook = Callable[[SessionClient], Awaitable[str | None]]


BEFORE_SESSION: dict[str, Hook] = {"codex": codex.before_session}


async def before_session(agent: str, client: SessionClient) -> str | None:
    """Run ``agent``'s before-session hook, if it has one; the method it signed in with, or None."""
    hook = BEFORE_SESSION.get(agent)
    return None if hook is None else await hook(client)
