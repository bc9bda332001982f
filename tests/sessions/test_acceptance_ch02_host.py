"""02 acceptance through the host (real service on 127.0.0.1, real demo agent, stand-in lifetime bridge):

- Stop in a slow turn → ACP ``session/cancel``, the turn ends ``cancelled``, the same adapter process and
  ACP session answer the next prompt (TURN-5, TURN-6).
- Restart reopens the most recent conversation, the next prompt is turn N+1; a 121-character rename →
  ``invalid_title`` (STORE-11, §4.3).
- Restart on the same data dir keeps the cookie valid; another data dir → 401; a replaced
  ``ui-session.key`` → WebSocket 1008; a bad MAC or a 12 h old cookie → 401 (AUTH-2, AUTH-4).
- Attachments: a pasted PNG reaches the agent as an ACP image block while the transcript keeps metadata only;
  an adapter without image support → ``attachments_unsupported`` with the staged set unchanged; a
  ``../../etc/passwd`` file name is stored under a random id; another conversation's id →
  ``attachment_invalid``; the 11th unsent file → ``too_many_attachments``; 10 MB + 1 byte → 413 with
  nothing stored (§9).

A small ACP proxy between the host and the demo agent records every line both ways with its own pid and,
in ``images`` mode, advertises image support (the demo ignores image blocks).
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from agent_registry import register_adapter
from sessions_harness import recv, recv_until, running_service, state_is

from clauz3.sessions.agent.providers.availability import python_adapter_argv

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
import proc_tree
from proc_tree import cmdline, descendants

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")

PROXY = r'''
import json, os, subprocess, sys, threading
log_path = sys.argv[1]
mode = open(sys.argv[2]).read().strip()  # read at start: a test may switch it before the agent starts
argv = sys.argv[sys.argv.index("--") + 1:]
child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
lock = threading.Lock()

def log(direction, message):
    with lock, open(log_path, "a") as fh:
        fh.write(json.dumps({"pid": os.getpid(), "dir": direction, "msg": message}) + "\n")

def from_child():
    for line in child.stdout:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        result = message.get("result")
        if mode == "images" and isinstance(result, dict) and isinstance(result.get("agentCapabilities"), dict):
            result["agentCapabilities"].setdefault("promptCapabilities", {})["image"] = True
        log("out", message)
        sys.stdout.buffer.write((json.dumps(message) + "\n").encode())
        sys.stdout.buffer.flush()
    sys.exit(0)

threading.Thread(target=from_child, daemon=True).start()
for line in sys.stdin.buffer:
    log("in", json.loads(line))
    child.stdin.write(line)
    child.stdin.flush()
child.kill()
'''


class Proxy:
    def __init__(self, tmp: Path) -> None:
        self.script = tmp / "acp_proxy.py"
        self.script.write_text(PROXY)
        self.log = tmp / "acp.jsonl"
        self.mode_file = tmp / "acp_mode.txt"
        self.mode = "pass"

    @property
    def mode(self) -> str:
        return self.mode_file.read_text()

    @mode.setter
    def mode(self, value: str) -> None:
        self.mode_file.write_text(value)

    def argv(self) -> tuple[str, ...]:
        return (sys.executable, str(self.script), str(self.log), str(self.mode_file), "--",
                *python_adapter_argv("clauz3.agents.demo"))

    def register(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The host's ``demo`` is this proxy (tests/agent_registry.py)."""
        register_adapter(monkeypatch, "demo", self.argv())

    def requests(self, method: str) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        lines = [json.loads(x) for x in self.log.read_text().splitlines()]
        return [e for e in lines if e["dir"] == "in" and e["msg"].get("method") == method]


@pytest.fixture
def proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Proxy]:
    rec = Proxy(tmp_path)
    rec.register(monkeypatch)
    yield rec


def method(name: str) -> Any:
    return lambda f: f.get("method") == name


def notice(code: str) -> Any:
    return lambda f: f.get("method") == "clauz3/notice" and f["params"].get("code") == code


async def ready(svc: Any) -> tuple[Any, dict[str, Any]]:
    if svc.cookie is None:
        await svc.login()
    ws = await svc.ws()
    restore = await recv(ws)
    assert restore["method"] == "clauz3/restore"
    await recv_until(ws, state_is(agent_status="ready"), timeout=60)
    return ws, restore


async def prompt(ws: Any, cid: str, text: str) -> list[dict[str, Any]]:
    await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": text}}))
    _, seen = await recv_until(ws, method("clauz3/turn_end"), timeout=60)
    await recv_until(ws, state_is(agent_status="ready"), timeout=30)
    return seen


def children(pid: int) -> set[int]:
    """As a set: the adapter check compares two readings, whatever order /proc lists them in."""
    return set(proc_tree.children(pid))


# ------------------------------------------------------------------------------------------ Stop

async def test_stop_in_a_slow_turn_keeps_the_same_adapter_and_session(tmp_path: Path, proxy: Proxy) -> None:
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        supervisor = svc.host.conversation.client.pid
        adapters = children(supervisor)
        assert len(adapters) == 1
        await ws.send(json.dumps({"method": "session/prompt",
                                  "params": {"conversation_id": cid, "prompt": "count to 1000 slowly"}}))
        await recv_until(ws, lambda f: f.get("method") == "clauz3/agent", timeout=30)
        await ws.send(json.dumps({"method": "session/cancel", "params": {}}))
        end, _ = await recv_until(ws, method("clauz3/turn_end"), timeout=30)
        assert end["params"]["stop_reason"] == "cancelled" and not end["params"].get("forced")
        [cancel] = proxy.requests("session/cancel")
        [first] = proxy.requests("session/prompt")
        assert cancel["msg"]["params"]["sessionId"] == first["msg"]["params"]["sessionId"]
        await recv_until(ws, state_is(agent_status="ready"), timeout=30)

        turn = await prompt(ws, cid, "count to 3")
        assert [f["params"]["stop_reason"] for f in turn if f["method"] == "clauz3/turn_end"] == ["end_turn"]
        second = proxy.requests("session/prompt")[-1]
        assert second["pid"] == first["pid"] == cancel["pid"]  # the same adapter process answered
        assert second["msg"]["params"]["sessionId"] == first["msg"]["params"]["sessionId"]
        assert svc.host.conversation.client.pid == supervisor and children(supervisor) == adapters
        assert proxy.requests("session/new") and not proxy.requests("session/load")
        assert len(proxy.requests("initialize")) == 1
        await ws.close()


# ------------------------------------------------------------------------------- restart, rename

async def test_restart_reopens_the_most_recent_conversation_and_rename_limits(tmp_path: Path) -> None:
    async with running_service(tmp_path) as svc:
        project = Path(svc.host.project)
        ws, restore = await ready(svc)
        older = restore["params"]["state"]["conversation_id"]
        await prompt(ws, older, "count to 2")
        await ws.send(json.dumps({"method": "clauz3/new", "params": {}}))
        fresh, _ = await recv_until(ws, method("clauz3/restore"))
        recent = fresh["params"]["state"]["conversation_id"]
        assert recent != older
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        await prompt(ws, recent, "count to 1")
        await prompt(ws, recent, "count to 2")
        await ws.close()

    async with running_service(tmp_path, project=project) as svc:
        ws, restore = await ready(svc)
        state = restore["params"]["state"]
        assert state["conversation_id"] == recent and state["turn"] == 2
        assert [f["params"]["turn"] for f in restore["params"]["history"] if f["method"] == "clauz3/user"] == [1, 2]
        seen = await prompt(ws, recent, "count to 3")
        [user] = [f for f in seen if f["method"] == "clauz3/user"]
        assert user["params"]["turn"] == 3 and user["params"]["conversation_id"] == recent

        before = svc.host.store.get(recent).title
        await ws.send(json.dumps({"method": "clauz3/rename", "params": {"id": recent, "title": "x" * 121}}))
        refused, _ = await recv_until(ws, method("clauz3/notice"))
        assert refused["params"]["code"] == "invalid_title"
        assert refused["params"]["text"] == "Enter a title of 1–120 characters."
        assert svc.host.store.get(recent).title == before
        await ws.send(json.dumps({"method": "clauz3/rename", "params": {"id": recent, "title": "y" * 120}}))
        listed, _ = await recv_until(ws, method("clauz3/conversations"))
        assert {"id": recent, "title": "y" * 120} in [{k: c[k] for k in ("id", "title")}
                                                      for c in listed["params"]["conversations"]]
        await ws.close()


# ----------------------------------------------------------------------------------- cookies

async def status_with(svc: Any, cookie: str, page: str) -> int:
    """The status of an API call with ``cookie`` and the page secret ``page`` (issue 19: both needed)."""
    async with svc.client(cookies={svc.cookie_name: cookie}, headers={"X-Clauz3-Page": page}) as c:
        return (await c.get("/api/workspaces")).status_code


async def test_cookie_survives_a_restart_on_the_same_data_dir_only(tmp_path: Path) -> None:
    async with running_service(tmp_path) as svc:
        project = Path(svc.host.project)
        cookie = await svc.login()
        page = svc.page_secret
        assert page is not None
        name = svc.cookie_name
        assert await status_with(svc, cookie, page) == 200
        tampered = cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")
        assert await status_with(svc, tampered, page) == 401
        stale = svc.service.sign_in.cookies.issue(now=__import__("time").time() - 12 * 3600 - 120)
        assert await status_with(svc, stale, page) == 401
        fresh = svc.service.sign_in.cookies.issue()
        assert await status_with(svc, fresh, page) == 200

    # Same data dir, same project: the cookie still signs in (HTTP and WebSocket).
    async with running_service(tmp_path, project=project) as svc:
        assert svc.cookie_name == name
        assert await status_with(svc, cookie, page) == 200
        svc.cookie, svc.page_secret = cookie, page  # the page's secret survives the restart with its cookie
        ws = await svc.ws()
        assert (await recv(ws))["method"] == "clauz3/restore"
        await ws.close()

    # Another data dir for the same project: 401.
    other = tmp_path / "elsewhere"
    other.mkdir()
    async with running_service(other, project=project) as svc:
        assert await status_with(svc, cookie, page) == 401
        async with svc.client(cookies={name: cookie}) as c:
            assert (await c.get("/api/workspaces")).status_code == 401

    # A replaced ui-session.key: the old cookie's WebSocket is closed 1008.
    key = tmp_path / "data" / "ui-session.key"
    key.unlink()
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, secrets.token_bytes(32))
    os.close(fd)
    async with running_service(tmp_path, project=project) as svc:
        svc.cookie, svc.page_secret = cookie, page
        ws = await svc.ws()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await recv(ws)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "Not signed in")
        assert await status_with(svc, cookie, page) == 401


# ------------------------------------------------------------------------------- attachments

async def upload(svc: Any, cid: str, body: bytes, name: str) -> Any:
    async with svc.client(cookies=svc.cookies()) as c:
        return await c.post(f"/api/chat/attachments?conversation_id={cid}", content=body,
                            headers={"Origin": svc.origin, "X-Clauz3-Filename": name})


async def attach(ws: Any, cid: str, ids: list[str]) -> None:
    await ws.send(json.dumps({"method": "clauz3/attach", "params": {"conversation_id": cid, "attachments": ids}}))


async def test_pasted_png_goes_as_an_image_block_and_the_transcript_keeps_metadata(
        tmp_path: Path, proxy: Proxy) -> None:
    proxy.mode = "images"
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        assert svc.host.conversation.capabilities.images
        # The page names a pasted screenshot "pasted-image.png" (composer.js).
        response = await upload(svc, cid, PNG, "pasted-image.png")
        assert response.status_code == 201, response.text
        meta = response.json()
        await attach(ws, cid, [meta["id"]])
        staged, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/state" and f["params"]["attachments"])
        assert staged["params"]["attachments"] == [{k: meta[k] for k in ("id", "name", "mime_type", "size", "kind")}]
        seen = await prompt(ws, cid, "what is in this picture?")
        [user] = [f for f in seen if f["method"] == "clauz3/user"]
        assert user["params"]["attachments"] == [{"id": meta["id"], "name": "pasted-image.png",
                                                  "mime_type": "image/png", "size": len(PNG), "kind": "image"}]
        sent = proxy.requests("session/prompt")[-1]["msg"]["params"]["prompt"]
        assert sent[0] == {"type": "text", "text": "what is in this picture?"}
        import base64
        assert sent[1] == {"type": "image", "mimeType": "image/png", "data": base64.b64encode(PNG).decode()}
        stored = json.dumps(svc.host.store.history(cid)) + json.dumps(svc.host.store.get(cid).state)
        assert base64.b64encode(PNG).decode() not in stored and "pasted-image.png" in stored
        async with svc.client(cookies=svc.cookies()) as c:
            exported = (await c.get(f"/api/chat/transcript?id={cid}")).text
        assert base64.b64encode(PNG).decode() not in exported
        await ws.close()


async def test_attachment_refusals_keep_the_staged_set(tmp_path: Path) -> None:
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        assert not svc.host.conversation.capabilities.images  # the demo takes text files only
        text = (await upload(svc, cid, b"hello\n", "notes.txt")).json()
        await attach(ws, cid, [text["id"]])
        await recv_until(ws, lambda f: f["method"] == "clauz3/state" and f["params"]["attachments"])
        staged = list(svc.host.conversation.attachments)

        # Adapter without image support: refused, staged set unchanged.
        image = await upload(svc, cid, PNG, "..%2F..%2Fetc%2Fpasswd")
        assert image.status_code == 201
        await attach(ws, cid, [text["id"], image.json()["id"]])
        refused, _ = await recv_until(ws, method("clauz3/notice"))
        assert refused["params"]["code"] == "attachments_unsupported"
        assert refused["params"]["text"] == "Demo doesn't accept image attachments."
        assert svc.host.conversation.attachments == staged

        # ../../etc/passwd is kept as "passwd" under a random id, inside the conversation's own folder.
        body = image.json()
        assert body["name"] == "passwd" and len(body["id"]) == 32 and body["id"] != "passwd"
        folder = Path(svc.host.data_dir) / "attachments" / cid
        assert (folder / body["id"]).read_bytes() == PNG
        assert not any("passwd" in p.name for p in Path(svc.host.data_dir).rglob("*"))
        assert not (Path(svc.host.project) / "passwd").exists()

        # Another conversation's attachment id → attachment_invalid; the staged set is kept.
        await prompt(ws, cid, "count to 1")  # uses the first conversation, so New opens another
        await ws.send(json.dumps({"method": "clauz3/new", "params": {}}))
        other_restore, _ = await recv_until(ws, method("clauz3/restore"))
        other = other_restore["params"]["state"]["conversation_id"]
        assert other != cid
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        mine = (await upload(svc, other, b"mine\n", "mine.txt")).json()
        await attach(ws, other, [mine["id"]])
        await recv_until(ws, lambda f: f["method"] == "clauz3/state" and f["params"]["attachments"])
        for foreign in (body["id"], text["id"]):  # unsent and sent ids of the first conversation
            await attach(ws, other, [mine["id"], foreign])
            refused, _ = await recv_until(ws, method("clauz3/notice"))
            assert refused["params"]["code"] == "attachment_invalid"
            assert refused["params"]["text"] == "That attachment is no longer available. Attach it again."
            assert [a["id"] for a in svc.host.conversation.attachments] == [mine["id"]]
            async with svc.client(cookies=svc.cookies()) as c:
                assert (await c.get(f"/api/chat/attachments/{foreign}")).status_code == 404
        await ws.close()


async def test_eleventh_file_and_oversize_upload(tmp_path: Path) -> None:
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        folder = Path(svc.host.data_dir) / "attachments" / cid
        ids = []
        for i in range(10):
            response = await upload(svc, cid, f"file {i}\n".encode(), f"f{i}.txt")
            assert response.status_code == 201, response.text
            ids.append(response.json()["id"])
        eleventh = await upload(svc, cid, b"one too many\n", "f10.txt")
        assert eleventh.status_code == 409 and eleventh.json()["error"]["code"] == "too_many_attachments"
        await attach(ws, cid, [*ids, ids[0]])
        refused, _ = await recv_until(ws, method("clauz3/notice"))
        assert refused["params"]["code"] == "too_many_attachments"
        before = sorted(p.name for p in folder.iterdir())
        async with svc.client(cookies=svc.cookies()) as c:
            await c.delete(f"/api/chat/attachments/{ids[0]}", headers={"Origin": svc.origin})
        big = await upload(svc, cid, b"a" * (10 * 1024 * 1024 + 1), "big.txt")
        assert big.status_code == 413
        after = sorted(p.name for p in folder.iterdir())
        assert after == sorted(n for n in before if not n.startswith(ids[0]))  # nothing of the big file kept
        exact = await upload(svc, cid, b"a" * (10 * 1024 * 1024), "exact.txt")
        assert exact.status_code == 201
        await ws.close()


# ------------------------------------------------------------------- Stop escalation, crash (TURN-7, TURN-9)

RAW_AGENT = Path(__file__).resolve().parent / "fixtures" / "raw_agent.py"


@pytest.fixture
def raw_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The host's ``demo`` is the misbehaving raw agent (``hang`` ignores cancel, ``exit`` crashes)."""
    log = tmp_path / "raw.jsonl"
    monkeypatch.setenv("RAW_LOG", str(log))
    register_adapter(monkeypatch, "demo", [sys.executable, str(RAW_AGENT)])
    return log


def _group_state(pid: int, group: int) -> bool:
    """True when ``pid`` is a live (not zombie) member of process group ``group``."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return int(fields[2]) == group and fields[0] != "Z"


def raw_methods(log: Path) -> list[str]:
    return [json.loads(x)["in"].get("method", "") for x in log.read_text().splitlines()] if log.exists() else []


async def stopped_turn(ws: Any, cid: str, *, stops: int) -> list[dict[str, Any]]:
    await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "hang"}}))
    await recv_until(ws, state_is(agent_status="busy"), timeout=30)
    for _ in range(stops):
        await ws.send(json.dumps({"method": "session/cancel", "params": {}}))
    _, seen = await recv_until(ws, state_is(agent_status="stopped"), timeout=30)
    return seen


async def test_ignored_cancel_is_killed_then_resumed_by_load_without_duplicates(tmp_path: Path,
                                                                              raw_demo: Path) -> None:
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        await prompt(ws, cid, "chunks 2")
        first_supervisor = svc.host.conversation.client.pid
        seen = await stopped_turn(ws, cid, stops=1)
        [end] = [f for f in seen if f["method"] == "clauz3/turn_end"]
        assert end["params"] == {"turn": 2, "stop_reason": "cancelled", "forced": True}
        assert [f["params"]["code"] for f in seen if f["method"] == "clauz3/notice"] == ["agent_stopped"]
        members = [p for p in os.listdir("/proc") if p.isdigit() and _group_state(int(p), first_supervisor)]
        assert members == [], members
        assert raw_methods(raw_demo).count("session/cancel") == 1

        # The next prompt restarts the adapter and resumes with session/load; the replay is discarded.
        seen = await prompt(ws, cid, "chunks 1")
        methods = raw_methods(raw_demo)
        assert methods.count("session/load") == 1 and methods.count("session/new") == 1
        history = svc.host.store.history(cid)
        assert "replayed" not in json.dumps(seen) and "replayed" not in json.dumps(history)
        users = [f["params"]["turn"] for f in history if f["method"] == "clauz3/user"]
        assert users == [1, 2, 3]
        chunks = [f["params"]["text"] for f in history if f["method"] == "clauz3/agent" and f["params"]["kind"] == "text"]
        assert chunks == ["c0;", "c1;", "c0;"]  # each once, nothing replayed twice
        await ws.close()


async def test_second_stop_kills_at_once_and_a_crash_keeps_the_transcript(
        tmp_path: Path, raw_demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clauz3.sessions.agent.acp_client import AcpClient

    # With an hour of grace, only the second Stop can end this turn.
    monkeypatch.setitem(AcpClient.__init__.__kwdefaults__, "cancel_grace", 3600.0)
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        seen = await stopped_turn(ws, cid, stops=2)
        [end] = [f for f in seen if f["method"] == "clauz3/turn_end"]
        assert end["params"]["stop_reason"] == "cancelled" and end["params"]["forced"] is True
        assert any(f["method"] == "clauz3/notice" and f["params"]["code"] == "agent_stopped" for f in seen)
        # The conversation resumes.
        await prompt(ws, cid, "chunks 1")
        assert svc.host.conversation.id == cid and svc.host.conversation.turn == 2

        # A crash mid-turn: agent_exited (retained), stopped, the transcript intact.
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "exit"}}))
        exited, _ = await recv_until(ws, notice("agent_exited"), timeout=30)
        assert exited["params"]["text"] == "Demo exited unexpectedly. Your conversation is saved; send a message to " \
                                           "restart it."
        await recv_until(ws, state_is(agent_status="stopped"), timeout=30)
        history = svc.host.store.history(cid)
        assert [f["params"]["text"] for f in history if f["method"] == "clauz3/user"] == ["hang", "chunks 1", "exit"]
        assert any(f["method"] == "clauz3/notice" and f["params"]["code"] == "agent_exited" for f in history)
        await prompt(ws, cid, "chunks 1")  # and it restarts on the next message
        await ws.close()


# --------------------------------------------------------------- Stop while a real run awaits approval

def worker_pids() -> list[int]:
    return [pid for pid in descendants(os.getpid()) if "clauz3.runs.worker" in cmdline(pid)]


async def test_stop_while_a_real_run_awaits_approval_ends_the_worker(tmp_path: Path) -> None:
    from clauz3.tutorials import EMAIL

    # The real bridge with cold workers (no warm fork), so the worker is a plain `clauz3.runs.worker` child.
    bridge = [sys.executable, "-P", "-m", "clauz3.bridge", "--no-warm"]
    async with running_service(tmp_path, tutorial="email", bridge=None, bridge_argv=bridge) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        outbox_before = sorted(p.name for p in Path(svc.host.project).rglob("*"))
        await ws.send(json.dumps({"method": "session/prompt", "params": {
            "conversation_id": cid, "prompt": EMAIL.starters[0].text}}))
        _, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/state" and any(
            r.get("phase") == "awaiting_approval" for r in f["params"]["runs"]), timeout=90)
        [worker] = worker_pids()
        group = os.getpgid(worker)
        [request_id] = list(svc.host.conversation.runs)
        await ws.send(json.dumps({"method": "session/cancel", "params": {}}))
        _, seen = await recv_until(ws, lambda f: f["method"] == "clauz3/state" and any(
            r.get("phase") == "cancelled" for r in f["params"]["runs"]), timeout=30)
        if not any(f["method"] == "clauz3/turn_end" for f in seen):
            await recv_until(ws, method("clauz3/turn_end"), timeout=30)
        record = svc.host.conversation.runs[request_id]
        assert (record.phase, record.record.reason) == ("cancelled", "stopped")
        members = [p for p in os.listdir("/proc") if p.isdigit() and _group_state(int(p), group)]
        assert members == [] and worker_pids() == []
        async with svc.client(cookies=svc.cookies()) as c:
            late = await c.post(f"/api/requests/{request_id}/decision", json={"decision": "approved_once"},
                                headers={"Origin": svc.origin})
        assert late.status_code == 409 and late.json()["error"]["code"] == "not_pending"
        assert svc.host.conversation.runs[request_id].phase == "cancelled"
        # No effect ran. The worker's sandbox makes an empty .clauz3/ so a run cannot plant one (issue 19).
        planted = Path(svc.host.project) / ".clauz3"
        assert not planted.exists() or (planted.is_dir() and not any(planted.iterdir()))
        assert sorted(p.name for p in Path(svc.host.project).rglob("*") if p != planted) \
            == [n for n in outbox_before if n != ".clauz3"]
        await ws.close()
