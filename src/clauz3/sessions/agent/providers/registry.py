"""The one table of providers (04 §5.1): agent id → its :class:`~.protocol.Provider`, in the rows' order.

The host looks an agent up here once (:func:`lookup`) and asks the object; no module compares agent
names. :func:`check` is the one entry point for availability (tests register their own agent by
replacing it, tests/agent_registry.py).
"""

from __future__ import annotations

from clauz3.sessions.agent.providers.agy import AntigravityProvider
from clauz3.sessions.agent.providers.availability import Availability
from clauz3.sessions.agent.providers.claude import ClaudeProvider
from clauz3.sessions.agent.providers.codex import CodexProvider
from clauz3.sessions.agent.providers.demo import DemoProvider
from clauz3.sessions.agent.providers.opencode import OpenCodeProvider
from clauz3.sessions.agent.providers.pi import PiProvider
from clauz3.sessions.agent.providers.protocol import Provider
from clauz3.sessions.agent.providers.table import AGENTS, ROWS

_ALL: tuple[Provider, ...] = (
    ClaudeProvider(), CodexProvider(), OpenCodeProvider(), PiProvider(), AntigravityProvider(), DemoProvider(),
)
PROVIDERS: dict[str, Provider] = {p.name: p for p in _ALL}
if tuple(PROVIDERS) != tuple(ROWS) or set(PROVIDERS) != set(AGENTS):
    raise ImportError("providers: one class per row of table.ROWS, in its order")


def lookup(agent: str) -> Provider:
    """The provider for ``agent``; ``KeyError`` names the known ids."""
    try:
        return PROVIDERS[agent]
    except KeyError:
        raise KeyError(f"unknown agent {agent!r}; choose one of: {', '.join(AGENTS)}") from None


def check(agent: str, *, path: str | None = None) -> Availability:
    """PRV-2/PRV-3 for one provider. ``path`` replaces ``$PATH`` for the lookup (tests)."""
    return lookup(agent).availability(path)


def check_all(*, path: str | None = None) -> dict[str, Availability]:
    """Every provider's availability (the inventory of 02 ``providers``), in table order."""
    return {agent: check(agent, path=path) for agent in PROVIDERS}
