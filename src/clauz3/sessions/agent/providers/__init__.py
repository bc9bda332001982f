"""Agent providers (04 §1, §5–§11): the table, availability, launch parameters, models.

The host calls :func:`check` (availability, off the event loop), :func:`build_launch` (adapter
argv/env and ``session/new`` parameters), :func:`apply_model` after a session starts, and
:func:`default_provider` for ``clauz3 ui`` without AGENT. The native adapters for ``pi`` and
``agy`` are separate entry modules (``pi_adapter``, ``agy_adapter``), not imported here.

This package replaces the earlier ``sessions/agent/providers.py`` module and keeps its names
(``AGENTS``, ``LABELS``, ``SHORT_LABELS``, ``HINTS``, ``PINS``, ``CLAUDE_FALLBACK``, ``check``,
``adapter_env``, ``Availability``) so existing imports keep working.
"""

from __future__ import annotations

from clauz3.sessions.agent.providers.availability import Availability, check, check_all, node_version
from clauz3.sessions.agent.providers.default import DefaultChoice, default_provider
from clauz3.sessions.agent.providers.launch import (
    PRIVATE_DIR_VAR,
    ProviderLaunch,
    adapter_env,
    build_launch,
    make_private_dir,
    remove_private_dir,
    session_meta,
)
from clauz3.sessions.agent.providers.models import (
    ModelUnavailable,
    apply_model,
    current_model,
    set_model_raw,
    validate_model,
)
from clauz3.sessions.agent.providers.modes import NEEDS_AGENT_NAME, enabled_in, mode_refusal
from clauz3.sessions.agent.providers.table import (
    AGENTS,
    CLAUDE_FALLBACK,
    HINTS,
    LABELS,
    PINS,
    PROVIDERS,
    RESTRICTED_ONLY,
    SHORT_LABELS,
    SIX_TOOLS,
    UNRESTRICTED_ONLY,
    Provider,
    provider,
)

__all__ = [
    "AGENTS", "CLAUDE_FALLBACK", "HINTS", "LABELS", "NEEDS_AGENT_NAME", "PINS", "PRIVATE_DIR_VAR", "PROVIDERS",
    "RESTRICTED_ONLY", "SHORT_LABELS", "SIX_TOOLS", "UNRESTRICTED_ONLY", "Availability", "DefaultChoice",
    "ModelUnavailable", "Provider", "ProviderLaunch", "adapter_env", "apply_model", "build_launch", "check",
    "check_all", "current_model", "default_provider", "enabled_in", "make_private_dir", "mode_refusal",
    "node_version", "provider", "remove_private_dir", "session_meta", "set_model_raw", "validate_model",
]
