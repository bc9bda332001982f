"""What the host asks of an agent provider (04 §1, §5–§11): the :class:`Provider` protocol.

Every difference between the agents is a member here, answered by the agent's class (``ClaudeProvider`` in
``claude.py``, ``CodexProvider`` in ``codex.py``, ``OpenCodeProvider`` in ``opencode.py``, ``PiProvider`` in
``pi.py``, ``AntigravityProvider`` in ``agy.py``, ``DemoProvider`` in ``demo.py``); the host looks the class
up once by id in :data:`.registry.PROVIDERS` and never compares agent names. :class:`BaseProvider` holds the
answers most agents share; :class:`NativeProvider` those of the two native adapters (pi, agy, 04 §9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from clauz3.sessions.agent.acp_permissions import NamedInClauz3Meta, PermissionRule, RefuseEvery
from clauz3.sessions.agent.providers.availability import Availability, npm_adapter
from clauz3.sessions.agent.providers.table import RESTRICTED, UNRESTRICTED, ProviderRow

if TYPE_CHECKING:
    from clauz3.sessions.agent.providers.session_client import SessionClient


class Provider(Protocol):
    """One agent as the host sees it. ``row`` is its line of the table (ids, labels, mode, pins, hints)."""

    row: ProviderRow
    permissions: PermissionRule  # PRM-2: how its updates and permission requests name a clauz3 tool
    native: bool  # NAT-4: a private dir per start; model, instructions and mode go in ``_meta.clauz3``
    sets_model: bool  # MDL-2: ``--model`` is applied after ``session/new``/``load`` (config option or set_model)
    prespawn: bool  # issue 13: its launch depends on nothing the service decides later, so it may start early
    own_terminal: bool  # CLD-7: ``clauz3 start`` runs the agent's own terminal UI, not clauz3's

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str: ...

    def availability(self, path: str | None = None) -> Availability:
        """PRV-2/PRV-3: installed, at the pinned version? ``path`` replaces ``$PATH`` (tests)."""
        ...

    def env(self, instructions: str) -> dict[str, str]:
        """What the adapter's environment gets on top of SUP-3 (CLD-3, CDX-2, OPC-2)."""
        ...

    def session_meta(
        self, *, instructions: str, requested_model: str | None, restricted: bool
    ) -> dict[str, Any] | None:
        """ACP-8: ``_meta`` of ``session/new`` and ``session/load`` (None: none)."""
        ...

    def first_prompt_instructions(self, instructions: str) -> str | None:
        """PRV-8: instructions the host prefixes to a fresh session's first prompt (None: delivered otherwise)."""
        ...

    def mode_refusal(self, *, unrestricted: bool, command: str) -> str | None:
        """PRV-5: why ``clauz3 <command> <agent> [--unrestricted]`` may not start, or None."""
        ...

    async def before_session(self, client: SessionClient) -> str | None:
        """CDX-3: a step after ``initialize``, before the first session request; the auth method it used."""
        ...


class BaseProvider:
    """The shared answers: an npm adapter run as its command, no extra env or ``_meta``, modes from the row,
    every permission request refused."""

    row: ProviderRow
    permissions: PermissionRule = RefuseEvery()  # the safe default: every native permission request refused
    native = False
    sets_model = False
    prespawn = False
    own_terminal = False
    adapter_args: tuple[str, ...] = ()  # after the npm command (opencode: ``acp``)

    @property
    def name(self) -> str:
        return self.row.id

    @property
    def label(self) -> str:
        return self.row.label

    def availability(self, path: str | None = None) -> Availability:
        return npm_adapter(self.row, path, args=self.adapter_args)

    def env(self, instructions: str) -> dict[str, str]:
        return {}

    def session_meta(
        self, *, instructions: str, requested_model: str | None, restricted: bool
    ) -> dict[str, Any] | None:
        return None

    def first_prompt_instructions(self, instructions: str) -> str | None:
        return None

    def mode_refusal(self, *, unrestricted: bool, command: str) -> str | None:
        if self.row.mode == UNRESTRICTED and not unrestricted:
            return (
                f"{self.label} has no restricted mode in clauz3; pass --unrestricted to let it use its native "
                "tools outside clauz3 proofs and approval"
            )
        if self.row.mode == RESTRICTED and unrestricted:
            return f"{self.label} runs only restricted in clauz3; start without --unrestricted"
        return None

    async def before_session(self, client: SessionClient) -> str | None:
        return None


class NativeProvider(BaseProvider):
    """pi and agy (04 §9): clauz3's own ACP adapter (``adapter_module``) around the agent's runtime."""

    permissions: PermissionRule = NamedInClauz3Meta()  # NAT-5
    native = True
    adapter_module: str

    def session_meta(
        self, *, instructions: str, requested_model: str | None, restricted: bool
    ) -> dict[str, Any] | None:
        return {"clauz3": {"model": requested_model, "instructions": instructions, "restricted": restricted}}
