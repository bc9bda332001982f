"""Libraries routes (05 §6.6): snapshot, review → apply with file changes, errors, and a failing apply
that rolls back byte-identically (INS-10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sessions_harness import signed_in
from workspace_helpers import files_project, headers, snapshot_tree

import clauz3.layers.apply as apply_module
from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.conversation.runs import ConversationRun


async def test_review_then_apply_installs_and_selects(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = files_project(tmp_path, data)
    async with signed_in(tmp_path, project=project, bridge=None) as svc, svc.client(cookies=svc.cookies()) as c:
        snap = (await c.get("/api/workspace/libraries")).json()
        assert set(snap) == {"catalog", "installed", "selected", "active", "mock_declarations", "review", "busy",
                             "manifest_errors"}  # issue 22: broken manifests, with file and line
        assert [i["domain"] for i in snap["installed"]] == ["filesystem"]
        assert snap["active"] == ["filesystem"] and snap["busy"] is False and snap["review"] is None
        assert any(r["source"] == "stdlib:env" for r in snap["catalog"])

        review = await c.post("/api/workspace/libraries/prepare", json={"action": "install", "source": "stdlib:env"},
                              headers=headers(svc))
        assert review.status_code == 200, review.text
        record = review.json()
        assert record["action"] == "install" and record["domains"] == ["env"]
        change = record["changes"][0]
        assert change["domain"] == "env" and "trusted/effects.py" in "\n".join(change["added"])
        assert not (project / ".clauz3" / "tools" / "env").exists()  # INS-2: nothing before apply
        assert (await c.get("/api/workspace/libraries")).json()["review"]["id"] == record["id"]

        applied = await c.post("/api/workspace/libraries/apply", json={"id": record["id"]}, headers=headers(svc))
        assert applied.status_code == 200, applied.text
        assert applied.json() == {"action": "install", "domains": ["env"], "backup": None}
        assert (project / ".clauz3" / "tools" / "env" / "trusted" / "effects.py").is_file()

        stale = await c.post("/api/workspace/libraries/apply", json={"id": record["id"]}, headers=headers(svc))
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "review_expired"

        selected = await c.post("/api/workspace/libraries/select", json={"domains": ["env"]}, headers=headers(svc))
        assert selected.json() == {"selected": ["env"]}
        # SEL-3: the running conversation keeps its selection.
        assert svc.host.conversation.saved.libraries == ["filesystem"]

        inspected = await c.post("/api/workspace/libraries/inspect", json={"source": "stdlib:env"},
                                 headers=headers(svc))
        assert inspected.status_code == 200 and "env" in inspected.json()["api"]

        for action, body, status, code in [
            ("prepare", {"action": "install", "source": "gh:evil/unknown"}, 404, "unknown_source"),
            ("prepare", {"action": "explode", "source": "stdlib:env"}, 400, "invalid_request"),
            ("inspect", {"source": 5}, 400, "invalid_request"),
            ("nonsense", {}, 400, "invalid_request"),
            ("discard", {"x": 1}, 400, "invalid_request"),
        ]:
            response = await c.post(f"/api/workspace/libraries/{action}", json=body, headers=headers(svc))
            assert (response.status_code, response.json()["error"]["code"]) == (status, code), (action, response.text)
        no_origin = await c.post("/api/workspace/libraries/discard", json={},
                                 headers={"Content-Type": "application/json"})
        assert no_origin.status_code == 403


async def test_apply_refused_for_active_domain_and_while_busy(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = files_project(tmp_path, data)
    async with signed_in(tmp_path, project=project, bridge=None) as svc, svc.client(cookies=svc.cookies()) as c:
        review = (await c.post("/api/workspace/libraries/prepare", json={"action": "remove", "domain": "filesystem"},
                               headers=headers(svc))).json()
        in_use = await c.post("/api/workspace/libraries/apply", json={"id": review["id"]}, headers=headers(svc))
        assert in_use.status_code == 409 and in_use.json()["error"]["code"] == "in_use"
        review = (await c.post("/api/workspace/libraries/prepare", json={"action": "install", "source": "stdlib:env"},
                               headers=headers(svc))).json()
        conv = svc.host.conversation
        conv.runs["req_live"] = ConversationRun(RunRecord("req_live", phase=Phase.AWAITING_APPROVAL))
        busy = await c.post("/api/workspace/libraries/apply", json={"id": review["id"]}, headers=headers(svc))
        assert busy.status_code == 409 and busy.json()["error"]["code"] == "busy"
        assert (await c.get("/api/workspace/libraries")).json()["busy"] is True
        assert not (project / ".clauz3" / "tools" / "env").exists()


async def test_failing_apply_rolls_back_byte_identically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = files_project(tmp_path, data)
    async with signed_in(tmp_path, project=project, bridge=None) as svc, svc.client(cookies=svc.cookies()) as c:
        svc.host.conversation.saved.libraries = []  # not in use: the update may proceed to the move
        review = await c.post("/api/workspace/libraries/prepare", json={"action": "update", "domain": "filesystem"},
                              headers=headers(svc))
        assert review.status_code == 200, review.text
        before = snapshot_tree(project / ".clauz3" / "tools")
        backups_before = snapshot_tree(project / ".clauz3" / "library-backups") \
            if (project / ".clauz3" / "library-backups").exists() else {}

        def fail(step: str, domain: str) -> None:
            if step == "install":
                raise OSError(5, "injected failure")

        monkeypatch.setattr(apply_module, "FAIL_HOOK", fail)
        failed = await c.post("/api/workspace/libraries/apply", json={"id": review.json()["id"]},
                              headers=headers(svc))
        assert failed.status_code == 409, failed.text
        assert "injected failure" in failed.json()["error"]["message"]
        assert snapshot_tree(project / ".clauz3" / "tools") == before
        after_backups = snapshot_tree(project / ".clauz3" / "library-backups") \
            if (project / ".clauz3" / "library-backups").exists() else {}
        assert after_backups == backups_before
        assert svc.host.operation is None
