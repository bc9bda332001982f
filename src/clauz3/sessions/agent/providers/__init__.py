"""Agent providers (04 §1, §5–§11): one class per agent behind the :class:`Provider` protocol.

:mod:`.registry` is the one table (agent id → provider object, :func:`lookup`); each agent's class
lives in its module (``claude``, ``codex``, ``opencode``, ``pi``, ``agy``, ``demo``) and answers
everything the host does differently per agent: availability, adapter argv/env and ``_meta``, modes,
the permission rule (PRM-2), whether ``--model`` is applied after the session starts, and the step
before the first session request (Codex's ``authenticate``). :mod:`.table` keeps the data rows (ids,
labels, modes, npm pins, hints). The host calls :func:`check` (availability, off the event loop),
:func:`build_launch` (adapter argv/env and ``session/new`` parameters), :func:`apply_model` after a
session starts, and :func:`default_provider` for ``clauz3 ui`` without AGENT. The native adapters for
``pi`` and ``agy`` are separate entry modules (``pi_adapter``, ``agy_adapter``), not imported here.
"""

from __future__ import annotations

from clauz3.sessions.agent.providers.availability import Availability, node_version
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
from clauz3.sessions.agent.providers.protocol import Provider
from clauz3.sessions.agent.providers.registry import PROVIDERS, check, check_all, lookup
from clauz3.sessions.agent.providers.table import (
    AGENTS,
    CLAUDE_FALLBACK,
    HINTS,
    LABELS,
    PINS,
    SHORT_LABELS,
    SIX_TOOLS,
    ProviderRow,
)

__all__ = [
    "AGENTS", "CLAUDE_FALLBACK", "HINTS", "LABELS", "NEEDS_AGENT_NAME", "PINS", "PRIVATE_DIR_VAR", "PROVIDERS",
    "SHORT_LABELS", "SIX_TOOLS", "Availability", "DefaultChoice",
    "ModelUnavailable", "Provider", "ProviderLaunch", "ProviderRow", "adapter_env", "apply_model", "build_launch",
    "check", "check_all", "current_model", "default_provider", "enabled_in", "lookup", "make_private_dir",
    "mode_refusal", "node_version", "remove_private_dir", "session_meta", "set_model_raw", "validate_model",
]
