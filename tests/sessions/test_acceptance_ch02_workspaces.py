"""02 acceptance "Workspaces" (§7.2, WSP-3..9) through the host: the real service on 127.0.0.1, the real demo
agent, the stand-in lifetime bridge and the in-process approval authority; leases held by other processes
are real ``flock`` holders in a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sessions_harness import recv, recv_until, signed_in, state_is

from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.store.lease import LeaseHeld, acquire_project_lease
from clauz3.sessions.store.store import ConversationStore

HOLDER = r'''
import sys, time
from pathlib import Path
from clauz3.sessions.store.lease import acquire_project_lease
lease = acquire_project_lease(Path(sys.argv[1]), sys.argv[2], port=1)
print("held", flush=True)
sys.stdin.read()
'''


def method(name: str) -> Any:
    return lambda f: f.get("method") == name


def real(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return Path(os.path.realpath(path))


def lease_is_held(data: Path, project: str) -> bool:
    try:
        acquire_project_lease(data, project, port=1).release()
    except LeaseHeld:
        return True
    return False


async def ready(svc: Any) -> tuple[Any, str]:
    ws = await svc.ws()
    restore = await recv(ws)
    await recv_until(ws, state_is(agent_status="ready"), timeout=60)
    return ws, restore["params"]["state"]["conversation_id"]


async def start_slow_turn(ws: Any, cid: str, n: int = 40) -> None:
    await ws.send(json.dumps({"method": "session/prompt",
                              "params": {"conversation_id": cid, "prompt": f"count to {n} slowly"}}))
    await recv_until(ws, lambda f: f.get("method") == "clauz3/agent", timeout=30)


async def test_idle_switch_opens_the_destinations_last_conversation(tmp_path: Path) -> None:
    dest = real(tmp_path / "dest")
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        source = svc.host.project
        # The destination already has a conversation with a turn (from an earlier visit).
        store = ConversationStore.open(data, str(dest))
        earlier = store.create(title="earlier work", agent="demo").id
        store.append(earlier, turn=1, method="clauz3/user", frame={"method": "clauz3/user", "params": {
            "conversation_id": earlier, "turn": 1, "text": "earlier work", "attachments": []}})
        store.close()
        ws, _cid = await ready(svc)
        old_generation = svc.host.authority.generation
        old_tokens = set(svc.host.authority.submission_tokens())
        assert old_tokens and lease_is_held(data, source)

        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(dest)}}))
        changed, _ = await recv_until(ws, method("clauz3/workspace_changed"), timeout=30)
        assert changed["params"]["current"] == {"path": str(dest), "name": "dest", "tutorial": None}
        assert changed["params"]["generation"] != old_generation
        restore, _ = await recv_until(ws, method("clauz3/restore"))
        state = restore["params"]["state"]
        assert state["conversation_id"] == earlier and state["project"] == str(dest)
        assert [f["params"]["text"] for f in restore["params"]["history"]] == ["earlier work"]
        assert state["generation"] == changed["params"]["generation"]
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        assert lease_is_held(data, str(dest)) and not lease_is_held(data, source)

        # The old submission token is refused by the authority (401); the new one is known (404 for no id).
        new_tokens = set(svc.host.authority.submission_tokens())
        assert new_tokens and not new_tokens & old_tokens
        unknown = "/api/requests/clr_" + "0" * 32
        async with svc.client() as c:
            for token in old_tokens:
                old = await c.get(unknown, headers={"Authorization": f"Bearer {token}"})
                assert old.status_code == 401, old.text
            for token in new_tokens:
                new = await c.get(unknown, headers={"Authorization": f"Bearer {token}"})
                assert new.status_code == 404, new.text
        await ws.close()


async def test_busy_switch_asks_first_then_stop_switches(tmp_path: Path) -> None:
    dest = real(tmp_path / "dest")
    async with signed_in(tmp_path) as svc:
        source = svc.host.project
        ws, cid = await ready(svc)
        await start_slow_turn(ws, cid)
        request = {"path": str(dest)}
        await ws.send(json.dumps({"method": "clauz3/workspace", "params": request}))
        ask, _ = await recv_until(ws, method("clauz3/confirm_workspace"))
        assert ask["params"]["reason"] == "active_work" and ask["params"]["request"] == request
        assert ask["params"]["text"].startswith("This workspace has active work.")
        assert svc.host.project == source and svc.host.conversation.status == "busy"
        # "stop": only the literal true counts.
        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(dest), "stop": "true"}}))
        again, _ = await recv_until(ws, method("clauz3/confirm_workspace"))
        assert again["params"]["reason"] == "active_work" and svc.host.project == source

        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(dest), "stop": True}}))
        changed, _ = await recv_until(ws, method("clauz3/workspace_changed"), timeout=30)
        assert changed["params"]["current"]["path"] == str(dest)
        assert svc.host.project == str(dest)
        restore, _ = await recv_until(ws, method("clauz3/restore"))
        assert restore["params"]["state"]["project"] == str(dest)
        await ws.close()


async def test_destination_leased_by_another_process_keeps_the_source_turn(tmp_path: Path) -> None:
    dest = real(tmp_path / "dest")
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(data), str(dest)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            ws, cid = await ready(svc)
            supervisor = svc.host.conversation.client.pid
            await start_slow_turn(ws, cid, 12)
            await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(dest), "stop": True}}))
            refused, seen = await recv_until(ws, method("clauz3/notice"))
            assert refused["params"]["code"] == "project_in_use"
            assert refused["params"]["text"] == "That project is already open in another clauz3 workspace."
            assert not any(f["method"] in ("clauz3/workspace_changed", "clauz3/restore") for f in seen)
            # The source turn goes on to its normal end in the same agent process.
            end, more = await recv_until(ws, method("clauz3/turn_end"), timeout=60)
            assert end["params"]["stop_reason"] == "end_turn"
            assert any(f["method"] == "clauz3/agent" for f in more)
            assert svc.host.project != str(dest) and svc.host.conversation.client.pid == supervisor
            assert lease_is_held(data, svc.host.project)
            await ws.close()
        finally:
            holder.stdin.close()  # type: ignore[union-attr]
            holder.wait(90)


async def test_old_generation_submission_is_409_and_nothing_shows(tmp_path: Path) -> None:
    dest = real(tmp_path / "dest")
    async with signed_in(tmp_path) as svc:
        ws, _cid = await ready(svc)
        old_generation = svc.host.authority.generation
        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(dest)}}))
        await recv_until(ws, method("clauz3/workspace_changed"), timeout=30)
        await recv_until(ws, method("clauz3/restore"))
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        conv = svc.host.conversation
        [registered] = [c for c in svc.host.authority._conversations.values() if c.conversation_id == conv.id]
        source = "def main() -> None:\n    pass\n"
        body = {
            "schema_version": 1, "kind": "clauz3.run", "request_id": "clr_" + "a" * 32, "program": source,
            "program_sha256": __import__("hashlib").sha256(source.encode()).hexdigest(), "source_name": "<mcp>",
            "target": "main", "trusted_roots": list(registered.layer.trusted_roots),
            "import_roots": list(registered.layer.import_roots), "guarantees": [], "coverage": [], "proofs": [],
            "execution_timeout_seconds": 60, "workspace_generation": old_generation,
            "sandbox": {"mode": "unavailable", "detail": "test", "extra_read": [], "extra_write": []},
        }
        async with svc.client() as c:
            response = await c.post("/api/requests", json=body,
                                    headers={"Authorization": f"Bearer {registered.token}"})
        assert response.status_code == 409, response.text
        assert response.json()["error"]["code"] == "workspace_changed"
        # A run record pushed under the old generation is ignored too.
        svc.host.on_run_record(conv.id, old_generation, RunRecord(body["request_id"], phase=Phase.PROVING))
        assert svc.host.authority.list() == [] and conv.runs == {}
        async with svc.client(cookies=svc.cookies()) as c:
            listed = (await c.get("/api/requests")).json()
        assert body["request_id"] not in json.dumps(listed)
        await ws.send(json.dumps({"method": "clauz3/rename", "params": {"id": conv.id, "title": "ping"}}))
        _, seen = await recv_until(ws, method("clauz3/conversations"))
        assert body["request_id"] not in json.dumps(seen)
        await ws.close()


async def test_failure_preparing_the_destination_keeps_the_source(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        source = svc.host.project
        generation = svc.host.authority.generation
        # The tutorial copy cannot be prepared: its place is a symbolic link.
        (data / "tutorials").mkdir(mode=0o700, exist_ok=True)
        (data / "tutorials" / "email").symlink_to(tmp_path)
        ws, cid = await ready(svc)
        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"tutorial": "email"}}))
        failed, seen = await recv_until(ws, method("clauz3/notice"), timeout=30)
        assert failed["params"]["code"] == "switch_failed"
        assert failed["params"]["text"].startswith("Couldn't open that workspace: ")
        assert failed["params"]["text"].endswith("You're still in project.")
        assert not any(f["method"] == "clauz3/workspace_changed" for f in seen)
        restore, _ = await recv_until(ws, method("clauz3/restore"))
        assert restore["params"]["state"]["project"] == source
        assert restore["params"]["state"]["conversation_id"] == cid
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        assert svc.host.project == source and svc.host.tutorial is None and svc.host.operation is None
        assert svc.host.authority.generation == generation
        assert lease_is_held(data, source)
        assert not lease_is_held(data, os.path.join(os.path.realpath(data), "tutorials", "email"))
        await ws.close()


async def test_invalid_destinations_and_reset_needs_confirmation(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(os.path.realpath(svc.host.data_dir))
        (tmp_path / "a-file.txt").write_text("x")
        tutorials = data / "tutorials" / "email"
        tutorials.mkdir(parents=True, exist_ok=True)
        folder = "Choose an existing folder by its absolute path."
        cases = [({"path": "relative/dir"}, folder), ({"path": str(tmp_path / "a-file.txt")}, folder),
                 ({"path": str(data)}, folder), ({"path": str(tmp_path / "missing")}, folder),
                 ({"path": str(tutorials)}, "Open tutorials from the Tutorials list."),
                 ({"tutorial": "nope"}, "Unknown tutorial")]
        ws = await svc.ws()
        await recv(ws)
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        source = svc.host.project
        for params, text in cases:
            await ws.send(json.dumps({"method": "clauz3/workspace", "params": params}))
            refused, _ = await recv_until(ws, method("clauz3/notice"))
            assert refused["params"]["code"] == "workspace_invalid", params
            assert refused["params"]["text"] == text, params
            assert svc.host.project == source
        # Reset without confirm_reset asks first and changes nothing.
        request = {"tutorial": "email", "reset": True}
        await ws.send(json.dumps({"method": "clauz3/workspace", "params": request}))
        ask, _ = await recv_until(ws, method("clauz3/confirm_workspace"))
        assert ask["params"]["reason"] == "reset" and ask["params"]["request"] == request
        assert "Start the Email approvals tutorial over?" in ask["params"]["text"]
        assert svc.host.project == source and svc.host.tutorial is None
        await ws.close()
