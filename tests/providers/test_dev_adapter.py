"""How a test registers its own agent: ``agent_registry.register_adapter`` (tests/), never a variable in src/.

The product used to read ``CLAUZ3_DEV_ADAPTER_<AGENT>`` to swap the adapter it starts; that seam is gone
(issue 23), so a user's environment cannot change which agent runs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from agent_registry import register_adapter

from clauz3.sessions.agent.providers import check, default

SRC = Path(__file__).resolve().parents[2] / "src" / "clauz3"


def test_a_registered_adapter_replaces_the_provider_command(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [sys.executable, "-c", "pass"]
    register_adapter(monkeypatch, "claude", argv)
    from clauz3.sessions.agent import providers

    for found in (providers.check("claude", path="/nonexistent"), default.check("claude", path="/nonexistent")):
        assert found.available and found.argv == tuple(argv)  # no claude on that PATH: the registration decides
    assert providers.check("demo").argv[-1] == "clauz3.agents.demo"  # other providers are untouched


def test_the_registration_ends_with_the_test() -> None:
    assert not check("claude", path="/nonexistent").available


def test_src_reads_no_adapter_override_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_DEV_ADAPTER_CLAUDE", json.dumps([sys.executable, "-c", "pass"]))
    assert not check("claude", path="/nonexistent").available
    seams = ("CLAUZ3_DEV_ADAPTER", "CLAUZ3_PROVE_SHOW_MODULES")  # issue 23: test hooks live in tests/
    offenders = [(p, s) for p in SRC.rglob("*.py") for s in seams if s in p.read_text(encoding="utf-8")]
    assert offenders == []
