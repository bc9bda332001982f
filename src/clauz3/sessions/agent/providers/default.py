"""Which agent ``clauz3 ui`` runs without AGENT (04 PRV-1, 05 CLI-12)."""

from __future__ import annotations

from dataclasses import dataclass

from clauz3.sessions.agent.providers.registry import check
from clauz3.sessions.agent.providers.table import CLAUDE_FALLBACK

NOTICE_ID = "claude_not_installed"


@dataclass(frozen=True)
class DefaultChoice:
    """``notice`` is None when claude was chosen; else the text T for ``warning: T`` and the page."""

    provider: str
    notice: str | None = None
    notice_id: str | None = None


def default_provider(*, path: str | None = None) -> DefaultChoice:
    """``claude`` when its pinned adapter is available, else ``demo`` with the PRV-1 notice."""
    if check("claude", path=path).available:
        return DefaultChoice("claude")
    return DefaultChoice("demo", CLAUDE_FALLBACK, NOTICE_ID)
