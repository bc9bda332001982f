"""04 CDX-3 through the host: a Codex start with an API key in the environment calls ACP ``authenticate``
``{methodId: "api-key"}`` after ``initialize`` and before ``session/new``; without a key it does not.

"Codex" here is the demo agent behind a small proxy that adds ``authMethods`` to its ``initialize`` answer,
answers ``authenticate`` itself, and logs every request, registered with tests/agent_registry.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from agent_registry import register_adapter
from sessions_harness import recv, recv_until, running_service, state_is

from clauz3.sessions.agent.providers.availability import python_adapter_argv

PROXY = r'''
import json, subprocess, sys, threading
log_path = sys.argv[1]
child = subprocess.Popen(sys.argv[sys.argv.index("--") + 1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
lock = threading.Lock()

def to_host(message):
    with lock:
        sys.stdout.buffer.write((json.dumps(message) + "\n").encode())
        sys.stdout.buffer.flush()

def from_child():
    for line in child.stdout:
        message = json.loads(line)
        result = message.get("result")
        if isinstance(result, dict) and "protocolVersion" in result:
            result["authMethods"] = [{"id": "chatgpt", "name": "ChatGPT"}, {"id": "api-key", "name": "API key"}]
        to_host(message)
    sys.exit(0)

threading.Thread(target=from_child, daemon=True).start()
for line in sys.stdin.buffer:
    message = json.loads(line)
    if "method" in message and "id" in message:
        with open(log_path, "a") as fh:
            fh.write(json.dumps({"method": message["method"], "params": message.get("params")}) + "\n")
    if message.get("method") == "authenticate":
        to_host({"jsonrpc": "2.0", "id": message["id"], "result": {}})
        continue
    child.stdin.write(line)
    child.stdin.flush()
child.kill()
'''


@pytest.mark.parametrize("key", ["sk-test-key", None])
async def test_codex_start_authenticates_before_session_new_when_a_key_is_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str | None) -> None:
    proxy, log = tmp_path / "codex_proxy.py", tmp_path / "codex-requests.jsonl"
    proxy.write_text(PROXY)
    register_adapter(monkeypatch, "codex", [sys.executable, str(proxy), str(log), "--",
                                           *python_adapter_argv("clauz3.agents.demo")])
    for name in ("OPENAI_API_KEY", "CODEX_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    if key is not None:
        monkeypatch.setenv("OPENAI_API_KEY", key)
    async with running_service(tmp_path, agent="codex", unrestricted=True) as svc:
        await svc.login()
        ws = await svc.ws()
        await recv(ws, what="the restore frame")
        await recv_until(ws, state_is(agent="codex", agent_status="ready"))
        await ws.close()
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    methods = [r["method"] for r in requests]
    assert methods[0] == "initialize" and "session/new" in methods, methods
    if key is None:
        assert "authenticate" not in methods  # CDX-3: rely on an existing `codex login`
    else:
        assert methods.index("authenticate") < methods.index("session/new"), methods
        assert [r["params"] for r in requests if r["method"] == "authenticate"] == [{"methodId": "api-key"}]
