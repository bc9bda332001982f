"""Register a test's own agent as a provider of the host under test (in this process).

The host finds an agent through ``providers.registry.check`` (the one availability entry point); a test that wants the host's ``demo`` (or
``claude``, …) to be its own script replaces that check for the one provider id, for the test's duration. Every
module that imported ``check`` by name is patched too, so the host, its launcher helpers and the CLI commands
all see the same registration. This lives in tests/, not behind an environment variable in src/ (issue 23): a
user's environment cannot swap the agent the product starts.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import pytest

from clauz3.sessions.agent.providers import registry
from clauz3.sessions.agent.providers.availability import Availability

_REAL = registry.check
_REGISTERED: dict[str, Availability] = {}  # this test's registrations; monkeypatch empties it after each test


def _check(name: str, *, path: str | None = None) -> Availability:
    found = _REGISTERED.get(name)
    return found if found is not None else _REAL(name, path=path)


def register_adapter(monkeypatch: pytest.MonkeyPatch, agent: str, argv: Sequence[str]) -> None:
    """From now until the test ends, ``check(agent)`` is available with ``argv`` (``argv[0]`` absolute, SUP-2).

    A module first imported while a registration is on binds the registry's check for good; with the
    registrations emptied after the test, that check is the real one again.
    """
    assert argv and os.path.isabs(argv[0]), argv
    monkeypatch.setitem(_REGISTERED, agent, Availability(True, argv=tuple(argv)))
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("clauz3.") and getattr(module, "check", None) is _REAL:
            monkeypatch.setattr(module, "check", _check)
