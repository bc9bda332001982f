"""Restricted and unrestricted modes (04 PRV-5, PRV-6; 02 ADD-3 as worded by 00 DEC-10).

Texts are returned without the CLI's ``error: `` prefix; the CLI exits 2 before creating anything.
"""

from __future__ import annotations

from clauz3.sessions.agent.providers.registry import lookup
from clauz3.sessions.agent.providers.table import BOTH, RESTRICTED, UNRESTRICTED

NEEDS_AGENT_NAME = "--unrestricted needs an explicit agent name (codex, opencode, agy or demo)"
REQUIRES_UNRESTRICTED = "Requires --unrestricted"
RESTART_RESTRICTED = "Restart without --unrestricted"


def mode_refusal(agent: str | None, *, unrestricted: bool, command: str = "ui") -> str | None:
    """Why ``clauz3 <command> [agent] [--unrestricted]`` may not start, or None when it may.

    ``command`` is ``ui`` or ``start``: ``start claude --unrestricted`` runs Claude Code's own
    terminal UI (CLD-7), so only the browser refuses it (each provider's ``mode_refusal``).
    """
    if agent is None:
        return NEEDS_AGENT_NAME if unrestricted else None
    return lookup(agent).mode_refusal(unrestricted=unrestricted, command=command)


def enabled_in(agent: str, *, unrestricted: bool) -> tuple[bool, str]:
    """PRV-6: ``(enabled, hint)`` for the inventory of a workspace running in the given mode."""
    mode = lookup(agent).row.mode
    if mode == BOTH:
        return True, ""
    if mode == UNRESTRICTED and not unrestricted:
        return False, REQUIRES_UNRESTRICTED
    if mode == RESTRICTED and unrestricted:
        return False, RESTART_RESTRICTED
    return True, ""
