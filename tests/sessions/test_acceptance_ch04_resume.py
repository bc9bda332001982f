"""04 resume acceptance through the host: the real workspace service, the real ACP client and the real demo
agent, with a recording proxy between them (written to the test's temp dir) that logs every ACP line both
ways and can, per start, hide ``loadSession`` or fail ``session/load``.

- Resume with the same provider sends ``session/load`` with a fresh ticket and the same ``_meta``; switching
  provider never sends the old id (RSM-1, RSM-2).
- 0 turns → ``session/new``; an adapter without ``loadSession`` → ``session/new`` + ``resume_unsupported``.
- A load error → transcript kept, ``resume_failed``, and a fresh ``session/new`` with a new id (RSM-4).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agent_registry import register_adapter
from sessions_harness import recv, recv_until, running_service, state_is

from clauz3.sessions.agent.providers.availability import python_adapter_argv

PROXY = r'''
import json, os, subprocess, sys, threading
log_path, mode_path, tag = sys.argv[1], sys.argv[2], sys.argv[3]
argv = sys.argv[sys.argv.index("--") + 1:]
mode = open(mode_path).read().strip()
child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
lock = threading.Lock()
pending_load = set()

def log(direction, message):
    with lock, open(log_path, "a") as fh:
        fh.write(json.dumps({"tag": tag, "pid": os.getpid(), "mode": mode, "dir": direction, "msg": message}) + "\n")

def to_host(message):
    sys.stdout.buffer.write((json.dumps(message) + "\n").encode())
    sys.stdout.buffer.flush()

def from_child():
    for line in child.stdout:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        result = message.get("result")
        if mode == "noload" and isinstance(result, dict) and isinstance(result.get("agentCapabilities"), dict):
            result["agentCapabilities"]["loadSession"] = False
        log("out", message)
        to_host(message)
    sys.exit(0)

threading.Thread(target=from_child, daemon=True).start()
for line in sys.stdin.buffer:
    message = json.loads(line)
    log("in", message)
    if mode == "loadfail" and message.get("method") == "session/load":
        answer = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32603, "message": "load exploded"}}
        log("out", answer)
        to_host(answer)
        continue
    child.stdin.write(line)
    child.stdin.flush()
child.kill()
'''


class Recorder:
    def __init__(self, tmp: Path) -> None:
        self.proxy = tmp / "acp_proxy.py"
        self.proxy.write_text(PROXY)
        self.log = tmp / "acp.jsonl"
        self.mode = tmp / "mode.txt"
        self.mode.write_text("pass")

    def argv(self, tag: str) -> tuple[str, ...]:
        return (sys.executable, str(self.proxy), str(self.log), str(self.mode), tag, "--",
                *python_adapter_argv("clauz3.agents.demo"))

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.log.read_text().splitlines()] if self.log.exists() else []

    def requests(self, method: str) -> list[dict[str, Any]]:
        return [e for e in self.lines() if e["dir"] == "in" and e["msg"].get("method") == method]

    def response_to(self, entry: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``entry`` from the same adapter process (JSON-RPC ids restart with each process)."""
        rid = entry["msg"]["id"]
        return next(e["msg"] for e in self.lines() if e["dir"] == "out" and e["msg"].get("id") == rid
                    and "method" not in e["msg"] and e["pid"] == entry["pid"])


@pytest.fixture
def recorder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    rec = Recorder(tmp_path)

    for agent in ("demo", "claude"):  # claude is the demo behind the proxy: a second provider to switch to
        register_adapter(monkeypatch, agent, rec.argv(agent))
    yield rec


def ticket_of(params: dict[str, Any]) -> str:
    [server] = params["mcpServers"]
    return next(e["value"] for e in server["env"] if e["name"] == "CLAUZ3_BRIDGE_TICKET_FILE")  # one per ticket


async def ready_socket(svc: Any) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    await svc.login()
    ws = await svc.ws()
    restore = await recv(ws)
    _, seen = await recv_until(ws, state_is(agent_status="ready"), timeout=60)
    return ws, restore, seen


async def one_turn(ws: Any, cid: str, text: str) -> list[dict[str, Any]]:
    await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": text}}))
    _, seen = await recv_until(ws, lambda f: f.get("method") == "clauz3/turn_end", timeout=60)
    return seen


async def test_resume_same_provider_loads_with_fresh_ticket_and_switching_never_sends_the_old_id(
        tmp_path: Path, recorder: Recorder) -> None:
    project = None
    async with running_service(tmp_path) as svc:
        project = Path(svc.host.project)
        ws, restore, _ = await ready_socket(svc)
        cid = restore["params"]["state"]["conversation_id"]
        await one_turn(ws, cid, "hello there")
        await ws.close()
    [new] = recorder.requests("session/new")
    old_id = recorder.response_to(new)["result"]["sessionId"]

    async with running_service(tmp_path, project=project) as svc:
        ws, restore, _ = await ready_socket(svc)
        assert restore["params"]["state"]["conversation_id"] == cid
        [load] = recorder.requests("session/load")
        assert load["msg"]["params"]["sessionId"] == old_id
        assert ticket_of(load["msg"]["params"]) != ticket_of(new["msg"]["params"])
        assert load["msg"]["params"].get("_meta") == new["msg"]["params"].get("_meta")
        assert load["msg"]["params"]["cwd"] == new["msg"]["params"]["cwd"]
        assert len(recorder.requests("session/new")) == 1  # loaded, not a fresh session
        seen = await one_turn(ws, cid, "and again")
        prompts = recorder.requests("session/prompt")
        assert prompts[-1]["msg"]["params"]["sessionId"] == old_id
        assert not [f for f in seen if f.get("method") == "clauz3/notice"
                    and f["params"].get("code") in ("resume_failed", "resume_unsupported")]

        await ws.send(json.dumps({"method": "clauz3/new", "params": {"agent": "claude"}}))
        await recv_until(ws, state_is(agent_status="ready", agent="claude"), timeout=60)
        claude_lines = [e for e in recorder.lines() if e["tag"] == "claude" and e["dir"] == "in"]
        assert any(e["msg"].get("method") == "session/new" for e in claude_lines)
        assert not any(e["msg"].get("method") == "session/load" for e in claude_lines)
        assert old_id not in json.dumps(claude_lines)  # the other provider never hears the old id
        await ws.close()


@pytest.mark.parametrize("case", ["zero-turns", "no-loadSession"])
async def test_zero_turns_or_no_load_capability_starts_a_new_session(tmp_path: Path, recorder: Recorder,
                                                                     case: str) -> None:
    async with running_service(tmp_path) as svc:
        project = Path(svc.host.project)
        ws, restore, _ = await ready_socket(svc)
        cid = restore["params"]["state"]["conversation_id"]
        if case == "no-loadSession":
            await one_turn(ws, cid, "hello there")
        await ws.close()
    [first] = recorder.requests("session/new")
    old_id = recorder.response_to(first)["result"]["sessionId"]
    if case == "no-loadSession":
        recorder.mode.write_text("noload")
    async with running_service(tmp_path, project=project) as svc:
        ws, restore, seen = await ready_socket(svc)
        assert recorder.requests("session/load") == []
        news = recorder.requests("session/new")
        assert len(news) == 2 and old_id not in json.dumps(news[1]["msg"])
        if case == "no-loadSession":
            assert restore["params"]["state"]["conversation_id"] == cid
            states = [f["params"] for f in seen if f.get("method") == "clauz3/state"]
            assert states[-1]["resume_notice"] == "resume_unsupported"
            turn = await one_turn(ws, cid, "still there?")
            assert any(f.get("method") == "clauz3/turn_end" for f in turn)
            new_id = recorder.response_to(news[1])["result"]["sessionId"]
            assert new_id != old_id
            assert recorder.requests("session/prompt")[-1]["msg"]["params"]["sessionId"] == new_id
        await ws.close()


async def test_load_error_keeps_the_transcript_and_the_next_prompt_uses_a_new_session(
        tmp_path: Path, recorder: Recorder) -> None:
    async with running_service(tmp_path) as svc:
        project = Path(svc.host.project)
        ws, restore, _ = await ready_socket(svc)
        cid = restore["params"]["state"]["conversation_id"]
        await one_turn(ws, cid, "remember this line")
        await ws.close()
    [first] = recorder.requests("session/new")
    old_id = recorder.response_to(first)["result"]["sessionId"]
    recorder.mode.write_text("loadfail")
    async with running_service(tmp_path, project=project) as svc:
        ws, restore, seen = await ready_socket(svc)
        assert restore["params"]["state"]["conversation_id"] == cid
        assert "remember this line" in json.dumps(restore["params"]["history"])  # the transcript stays
        assert len(recorder.requests("session/load")) == 1
        states = [f["params"] for f in seen if f.get("method") == "clauz3/state"]
        assert states[-1]["resume_notice"] == "resume_failed"
        assert "load exploded" in (states[-1].get("error_detail") or "")
        turn = await one_turn(ws, cid, "next prompt")
        assert any(f.get("method") == "clauz3/turn_end" for f in turn)
        news = recorder.requests("session/new")
        assert len(news) == 2 and old_id not in json.dumps(news[1]["msg"])
        new_id = recorder.response_to(news[1])["result"]["sessionId"]
        assert new_id != old_id
        assert recorder.requests("session/prompt")[-1]["msg"]["params"]["sessionId"] == new_id
        restored = svc.host.store.history(cid)
        assert "remember this line" in json.dumps(restored) and "next prompt" in json.dumps(restored)
        await ws.close()
