"""Workspace switching (02 WSP-3..WSP-6) and tutorial reset (05 TUT-3) through the WebSocket."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sessions_harness import recv, recv_until, signed_in, state_is

from clauz3.layers.selection import defaults_path, save_defaults
from clauz3.sessions.store.lease import LeaseHeld, acquire_project_lease
from clauz3.storage.journals import journal_path


def method(name: str):
    return lambda f: f["method"] == name


async def test_idle_switch_moves_lease_generation_and_credentials(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    other = Path(os.path.realpath(other))
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        source = svc.host.project
        ws = await svc.ws()
        first = (await recv(ws))["params"]["state"]
        await recv_until(ws, state_is(agent_status="ready"))
        old_generation = first["generation"]
        old_tokens = set(svc.host.authority.submission_tokens())
        assert old_tokens

        for bad in ({"path": "relative/dir"}, {"path": str(tmp_path / "missing")}, {"path": str(data)},
                    {"tutorial": "nope"}):
            await ws.send(json.dumps({"method": "clauz3/workspace", "params": bad}))
            refused, _ = await recv_until(ws, method("clauz3/notice"))
            assert refused["params"]["code"] == "workspace_invalid", bad

        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(other)}}))
        changed, _ = await recv_until(ws, method("clauz3/workspace_changed"), timeout=20)
        assert changed["params"]["current"] == {"path": str(other), "name": "other", "tutorial": None}
        assert changed["params"]["generation"] != old_generation
        restore, _ = await recv_until(ws, method("clauz3/restore"))
        assert restore["params"]["state"]["project"] == str(other)
        assert restore["params"]["history"] == []
        with pytest.raises(LeaseHeld):
            acquire_project_lease(data, str(other), port=1)
        acquire_project_lease(data, source, port=1).release()  # the source lease is free again
        assert not old_tokens & set(svc.host.authority.submission_tokens())
        async with svc.client(cookies=svc.cookies()) as c:
            listing = (await c.get("/api/workspaces")).json()
        assert listing["current"]["path"] == str(other)
        assert [r["path"] for r in listing["recent"]][:2] == [str(other), source]
        assert {t["id"] for t in listing["tutorials"]} == {"email", "real-files"}
        await ws.close()


async def test_destination_in_use_keeps_the_source(tmp_path: Path) -> None:
    other = Path(os.path.realpath(tmp_path)) / "busy"
    other.mkdir()
    async with signed_in(tmp_path) as svc:
        lease = acquire_project_lease(Path(svc.host.data_dir), str(other), port=1)
        try:
            ws = await svc.ws()
            await recv(ws)
            # Starting agent = active work: confirm first (WSP-4); with stop the lease is tried first (WSP-5.1).
            await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(other)}}))
            ask, _ = await recv_until(ws, method("clauz3/confirm_workspace"))
            assert ask["params"]["reason"] == "active_work"
            await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(other), "stop": True}}))
            refused, _ = await recv_until(ws, method("clauz3/notice"))
            assert refused["params"]["code"] == "project_in_use"
            assert svc.host.project != str(other)
            await ws.close()
        finally:
            lease.release()


async def test_tutorial_reset_restores_files_and_clears_its_state(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        ws = await svc.ws()
        await recv(ws)
        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"tutorial": "real-files", "stop": True}}))
        changed, _ = await recv_until(ws, method("clauz3/workspace_changed"), timeout=20)
        copy = Path(changed["params"]["current"]["path"])
        assert changed["params"]["current"]["tutorial"] == "real-files"
        assert copy == Path(os.path.realpath(data / "tutorials" / "real-files"))
        restore, _ = await recv_until(ws, method("clauz3/restore"))
        cid = restore["params"]["state"]["conversation_id"]
        assert restore["params"]["state"]["libraries"] == ["filesystem"]
        await recv_until(ws, state_is(agent_status="ready"), timeout=20)
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "hello"}}))
        await recv_until(ws, method("clauz3/turn_end"), timeout=20)
        await recv_until(ws, state_is(agent_status="ready"))

        groceries = copy / "notes" / "groceries.txt"
        original = groceries.read_bytes()
        groceries.write_text("changed\n")
        (copy / "output" / "planted").symlink_to(tmp_path / "victim")
        (tmp_path / "victim").write_text("keep me")
        save_defaults(copy, ["filesystem"], data)
        journal = Path(journal_path(data, copy, "run_reset_0001"))
        journal.parent.mkdir(parents=True, exist_ok=True)
        journal.write_text("")
        handoffs = data / "handoffs"
        handoffs.mkdir(mode=0o700, exist_ok=True)
        (handoffs / "kept.json").write_text("{}")

        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"tutorial": "real-files", "reset": True}}))
        ask, _ = await recv_until(ws, method("clauz3/confirm_workspace"))
        assert ask["params"]["reason"] == "reset" and "Start the Real files tutorial over?" in ask["params"]["text"]
        assert groceries.read_text() == "changed\n"

        await ws.send(json.dumps({"method": "clauz3/workspace", "params": {
            "tutorial": "real-files", "reset": True, "confirm_reset": True, "stop": True}}))
        await recv_until(ws, method("clauz3/workspace_changed"), timeout=20)
        restore, _ = await recv_until(ws, method("clauz3/restore"))
        assert restore["params"]["state"]["conversation_id"] != cid and restore["params"]["history"] == []
        assert groceries.read_bytes() == original
        assert not os.path.lexists(copy / "output" / "planted")
        assert (tmp_path / "victim").read_text() == "keep me"
        assert svc.host.store.get(cid) is None
        assert not defaults_path(copy, data).exists() and not journal.exists()
        assert (handoffs / "kept.json").exists()
        assert (copy / ".clauz3" / "tools" / "filesystem" / ".clauz3-origin.json").is_file()
        await ws.close()
