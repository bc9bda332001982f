"""Undo routes (05 FS-5..FS-7) over a journal written by a real filesystem-library run."""

from __future__ import annotations

import os
from pathlib import Path

from sessions_harness import signed_in
from workspace_helpers import APPEND_MILK, files_project, headers, real_run

from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.conversation.runs import ConversationRun
from clauz3.storage.journals import journal_path


async def test_undo_restores_then_refuses_again_and_unknown_is_404(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = files_project(tmp_path, data)
    record = real_run(project, data, APPEND_MILK, "run_undo_0001")
    assert record["phase"] == "completed", record
    assert (project / "notes" / "groceries.txt").read_text() == "apples\nbread\nmilk\n"
    assert os.path.isfile(journal_path(data, project, "run_undo_0001"))

    async with signed_in(tmp_path, project=project, bridge=None) as svc, svc.client(cookies=svc.cookies()) as c:
        listed = await c.get("/api/workspace/runs/run_undo_0001/file-changes")
        assert listed.status_code == 200, listed.text
        body = listed.json()
        assert body["run_id"] == "run_undo_0001" and body["undoable"] is True and body["undone"] is False
        assert {(e["path"], e["undoable"]) for e in body["entries"]} == {
            ("notes/groceries.txt", True), ("notes/new.txt", True)}

        assert (await c.get("/api/workspace/runs/run_nope/file-changes")).status_code == 404
        assert (await c.post("/api/workspace/runs/run_nope/undo", json={}, headers=headers(svc))).status_code == 404
        assert (await c.post("/api/workspace/runs/..%2Fx/undo", json={}, headers=headers(svc))).status_code == 404

        done = await c.post("/api/workspace/runs/run_undo_0001/undo", json={}, headers=headers(svc))
        assert done.status_code == 200, done.text
        outcomes = {r["path"]: r["outcome"] for r in done.json()["results"]}
        assert outcomes == {"notes/groceries.txt": "restored", "notes/new.txt": "removed"}
        assert (project / "notes" / "groceries.txt").read_text() == "apples\nbread\n"
        assert not (project / "notes" / "new.txt").exists()
        # TURN-3: a host note waits for the agent's next prompt.
        assert any("undid the file changes of run run_undo_0001" in n
                   for n in svc.host.conversation.saved.host_notes)

        again = await c.post("/api/workspace/runs/run_undo_0001/undo", json={}, headers=headers(svc))
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_undone"
        after = (await c.get("/api/workspace/runs/run_undo_0001/file-changes")).json()
        assert after["undone"] is True and after["undoable"] is False


async def test_changed_since_is_left_alone_and_busy_is_409(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = files_project(tmp_path, data)
    assert real_run(project, data, APPEND_MILK, "run_undo_0002")["phase"] == "completed"
    (project / "notes" / "groceries.txt").write_text("edited by hand\n")

    async with signed_in(tmp_path, project=project, bridge=None) as svc, svc.client(cookies=svc.cookies()) as c:
        conv = svc.host.conversation
        conv.runs["req_active"] = ConversationRun(RunRecord("req_active", phase=Phase.EXECUTING))
        busy = await c.post("/api/workspace/runs/run_undo_0002/undo", json={}, headers=headers(svc))
        assert busy.status_code == 409 and busy.json()["error"]["code"] == "busy"
        assert (project / "notes" / "new.txt").exists()
        conv.runs["req_active"] = ConversationRun(RunRecord("req_active", phase=Phase.COMPLETED))

        bad_body = await c.post("/api/workspace/runs/run_undo_0002/undo", json={"x": 1}, headers=headers(svc))
        assert bad_body.status_code == 400

        done = await c.post("/api/workspace/runs/run_undo_0002/undo", json={}, headers=headers(svc))
        outcomes = {r["path"]: r["outcome"] for r in done.json()["results"]}
        assert outcomes == {"notes/groceries.txt": "changed_since", "notes/new.txt": "removed"}
        assert (project / "notes" / "groceries.txt").read_text() == "edited by hand\n"


async def test_finished_run_record_shows_undo_available(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = files_project(tmp_path, data)
    assert real_run(project, data, APPEND_MILK, "run_undo_0003")["phase"] == "completed"
    async with signed_in(tmp_path, project=project, bridge=None) as svc:
        conv = svc.host.conversation
        conv.on_run_record(RunRecord("run_undo_0003", phase=Phase.COMPLETED, exit_code=0))
        assert conv.runs["run_undo_0003"].to_json()["undo"] == {"available": True, "undone": False}
        conv.on_run_record(RunRecord("run_other_01", phase=Phase.COMPLETED, exit_code=0))
        assert conv.runs["run_other_01"].to_json()["undo"] == {"available": False, "undone": False}
