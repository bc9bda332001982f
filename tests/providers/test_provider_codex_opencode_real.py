"""The real pinned codex-acp and opencode adapters through the host's launch path (04 TST-8,
TST-9): ``initialize`` and ``session/new`` with the bridge configured, offline, no account; the
model config option is listed and settable; an unknown model ends the adapter with the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Bridge, Start, need_npm

from clauz3.sessions.agent.providers import codex, lookup, models
from clauz3.sessions.agent.providers.table import (
    CODEX_ACP_PACKAGE,
    CODEX_ACP_PIN,
    OPENCODE_PACKAGE,
    OPENCODE_PIN,
)


async def test_codex_session_with_bridge(start_provider: Start, bridge: Bridge, tmp_path: Path, project: Path) -> None:
    need_npm(CODEX_ACP_PACKAGE, CODEX_ACP_PIN)
    logs = tmp_path / "app-server-logs"
    logs.mkdir()
    client, launch = start_provider(
        "codex", env={"OPENAI_API_KEY": "sk-fake-key-for-tests", "APP_SERVER_LOGS": str(logs)},
        instructions="clauz3 instructions", restricted=False,
    )
    assert launch.launch.env["NO_BROWSER"] == "1"
    assert launch.launch.env["INITIAL_AGENT_MODE"] == "read-only"
    await client.start()
    # CDX-3 through the host's own step (what Conversation.start_agent runs between initialize and session/new).
    assert await lookup("codex").before_session(client) == codex.API_KEY_METHOD
    session = await client.new_session(launch.params)
    started = await bridge.wait_started()
    assert started["cwd"] == str(project)
    raw = session.result
    assert "models" in raw
    option = models.model_option(models.config_options(raw))
    values = models.option_values(option)
    assert option is not None and values, raw.get("configOptions")
    effective = await models.apply_model(client, "codex", raw, values[-1])
    assert effective == values[-1]
    assert client.alive


async def test_opencode_session_with_bridge(start_provider: Start, bridge: Bridge, project: Path) -> None:
    need_npm(OPENCODE_PACKAGE, OPENCODE_PIN)
    client, launch = start_provider("opencode", instructions="clauz3 instructions", restricted=False)
    assert '"clauz3_*": "allow"' in launch.launch.env["OPENCODE_CONFIG_CONTENT"]
    assert launch.first_prompt_instructions == "clauz3 instructions"
    await client.start()
    session = await client.new_session(launch.params)
    started = await bridge.wait_started()
    assert started["cwd"] == str(project)
    option = models.model_option(models.config_options(session.result))
    values = models.option_values(option)
    free = [v for v in values if v.startswith("opencode/")]
    assert free, values
    assert await models.apply_model(client, "opencode", session.result, free[0]) == free[0]
    # An unlisted model goes through raw session/set_model; the refusal ends the adapter (MDL-2).
    with pytest.raises(models.ModelUnavailable) as caught:
        await models.apply_model(client, "opencode", session.result, "nope/nope")
    assert str(caught.value).startswith("model nope/nope isn't available; choose one of: ")
    assert free[0] in str(caught.value)
    assert caught.value.ended and not client.alive
