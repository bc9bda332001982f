"""The supported way to register a test agent: ``CLAUZ3_DEV_ADAPTER_<AGENT>`` (README "Developing")."""

from __future__ import annotations

import json
import sys

import pytest

from clauz3.sessions.agent.providers import adapter_env, check
from clauz3.sessions.agent.providers.availability import DEV_ADAPTER_PREFIX


def test_a_registered_adapter_replaces_the_provider_command(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [sys.executable, "-c", "pass"]
    monkeypatch.setenv(DEV_ADAPTER_PREFIX + "CLAUDE", json.dumps(argv))
    found = check("claude", path="/nonexistent")  # no claude on this PATH: the registration alone decides
    assert found.available and found.argv == tuple(argv)
    assert check("demo").argv[-1] == "clauz3.agents.demo"  # other providers are untouched


@pytest.mark.parametrize("raw", ["not json", "[]", '["relative/python"]', '{"argv": ["/bin/true"]}', '["/bin/x", 3]'])
def test_a_malformed_registration_is_unavailable_with_the_variable_named(monkeypatch: pytest.MonkeyPatch,
                                                                          raw: str) -> None:
    monkeypatch.setenv(DEV_ADAPTER_PREFIX + "DEMO", raw)
    found = check("demo")
    assert not found.available and found.argv == ()
    assert "CLAUZ3_DEV_ADAPTER_DEMO" in found.reason and "unset CLAUZ3_DEV_ADAPTER_DEMO" in found.hint


def test_agents_never_see_the_registration(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = adapter_env({"PATH": "/usr/bin", DEV_ADAPTER_PREFIX + "DEMO": '["/bin/true"]'}, tmp_path, provider="demo")
    assert not [k for k in env if k.startswith(DEV_ADAPTER_PREFIX)]
