"""Ledger (IDM-4, RCP-2), snapshot (SNAP-2/3), records, output caps, client and sandbox rules."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.approvals.receipts import ReceiptClaims, ReceiptError
from clauz3.runs import sandbox
from clauz3.runs.client import ApprovalClient, ServiceURLError, parse_service_url
from clauz3.runs.ledger import Ledger, payload_sha256
from clauz3.runs.output import OutputCapture, truncation_marker
from clauz3.runs.records import MAX_RECORD_BYTES, RunRecord
from clauz3.runs.snapshot import SnapshotFile
from clauz3.runs.supervisor import Supervisor, _Kill

from .conftest import make_config


def _claims(request_id: str, nonce: str = "a" * 32) -> ReceiptClaims:
    return ReceiptClaims(kid="0" * 16, request_id=request_id, program_sha256="b" * 64, consent_sha256="c" * 64,
                         decision="approved_once", nonce=nonce, issued_at=0, expires_at=2**40,
                         workspace_generation=None, project_sha256="d" * 64)


def _begin(ledger: Ledger, rid: str, payload: str = "p" * 64):  # type: ignore[no-untyped-def]
    return ledger.begin(rid, project="/proj", conversation_id=None, payload_sha=payload, source_sha="s" * 64)


def test_ledger_file_is_private_and_starts_with_consumed_receipts(tmp_path: Path) -> None:
    ledger = Ledger.for_project(tmp_path / "data", tmp_path / "proj")
    try:
        assert stat.S_IMODE(os.stat(ledger.path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(ledger.path.parent).st_mode) == 0o700
        names = [r[0] for r in ledger.conn.execute("SELECT name FROM _migrations ORDER BY id")]
        assert names[0] == "approvals-0001-consumed-receipts" and "runs-0001-runs" in names
    finally:
        ledger.close()


def test_ledger_idempotency_table(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "runs.sqlite")
    try:
        first = _begin(ledger, "req_a_000001")
        assert first.kind == "new" and first.lock is not None
        assert _begin(ledger, "req_a_000001").kind == "active"  # lock held
        assert _begin(ledger, "req_a_000001", payload="q" * 64).kind == "conflict"
        first.lock.release()
        resumed = _begin(ledger, "req_a_000001")
        assert resumed.kind == "resume" and resumed.attempt == 2
        ledger.claim("req_a_000001", _claims("req_a_000001"), decision="approved_once")
        assert ledger.get("req_a_000001")["phase"] == "executing"
        # The supervisor reading a late event never moves the row back out of executing.
        ledger.set_phase("req_a_000001", "awaiting_approval")
        assert ledger.get("req_a_000001")["phase"] == "executing"
        assert resumed.lock is not None
        resumed.lock.release()
        lost = _begin(ledger, "req_a_000001")
        assert lost.kind == "uncertain" and lost.row["phase"] == "uncertain"
        assert _begin(ledger, "req_a_000001").kind == "recorded"
    finally:
        ledger.close()


def test_reconcile_conversation_stores_the_uncertain_record(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "runs.sqlite")
    try:
        rid = "req_r_000001"
        began = ledger.begin(rid, project="/proj", conversation_id="conv", payload_sha="p" * 64,
                             source_sha="s" * 64)
        ledger.set_phase(rid, "awaiting_approval", record={"request_id": rid, "phase": "awaiting_approval",
                                                           "reason": None, "exit_code": None, "marker": 1})
        ledger.claim(rid, _claims(rid), decision="approved_once")
        assert began.lock is not None
        assert ledger.reconcile_conversation("conv") == []  # the owner still holds the lock
        began.lock.release()
        assert ledger.reconcile_conversation("other") == []
        [record] = ledger.reconcile_conversation("conv")
        assert (record.phase, record.reason, record.exit_code) == ("uncertain", "worker_lost", None)
        assert record.message
        row = ledger.get(rid)
        assert row is not None and (row["phase"], row["reason"], row["exit_code"]) == ("uncertain", "worker_lost",
                                                                                        None)
        stored = json.loads(row["record"])  # the stored record agrees with the columns, its other keys kept
        assert (stored["phase"], stored["reason"], stored["exit_code"], stored["marker"]) == (
            "uncertain", "worker_lost", None, 1)
        assert stored["message"] == record.message
        assert ledger.reconcile_conversation("conv") == []
        assert ledger.mark_uncertain_if_executing(rid) is None
    finally:
        ledger.close()


def test_claim_is_single_use_across_connections(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    a, b = Ledger(path), Ledger(path)
    try:
        one = _begin(a, "req_b_000001")
        two = _begin(a, "req_c_000001")
        a.claim("req_b_000001", _claims("req_b_000001", "1" * 32), decision="approved_once")
        with pytest.raises(ReceiptError) as exc:  # same nonce, other request
            b.claim("req_c_000001", _claims("req_c_000001", "1" * 32), decision="approved_once")
        assert exc.value.code == "receipt_replayed"
        assert b.get("req_c_000001")["phase"] == "checking"  # the transaction rolled back
        for lock in (one.lock, two.lock):
            assert lock is not None
            lock.release()
    finally:
        a.close()
        b.close()


def test_payload_hash_covers_roots_order_and_timeout() -> None:
    base = payload_sha256("src", "main", ["/a", "/b"], ["/i"], 60)
    assert base != payload_sha256("src", "main", ["/b", "/a"], ["/i"], 60)
    assert base != payload_sha256("src", "main", ["/a", "/b"], ["/i"], 61)
    assert base != payload_sha256("src", "other", ["/a", "/b"], ["/i"], 60)
    assert base == payload_sha256("src", "main", ["/a", "/b"], ["/i"], 60)


def test_snapshot_keeps_newest_50_and_reconciles(tmp_path: Path) -> None:
    path = tmp_path / "snap" / "runs.json"
    ledger = Ledger(tmp_path / "runs.sqlite")
    try:
        for restart in range(2):
            snap = SnapshotFile(path, "conv")
            snap.load(ledger)
            for i in range(30):
                rec = RunRecord(request_id=f"req_{restart}_{i:06d}", phase="proving")
                snap.update(rec)
                json.loads(path.read_text())  # valid at every write
        snap = SnapshotFile(path, "conv")
        snap.load(ledger)
        runs = json.loads(path.read_text())["runs"]
        assert len(runs) == 50
        assert runs[-1]["request_id"] == "req_1_000029" and runs[0]["request_id"] == "req_0_000010"
        assert {r["phase"] for r in runs} == {"cancelled"}  # non-final, not in the ledger: bridge_restarted
        assert runs[0]["reason"] == "bridge_restarted"
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    finally:
        ledger.close()


def test_snapshot_write_failure_is_ignored(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    snap = SnapshotFile(blocker / "runs.json", "conv")
    snap.update(RunRecord(request_id="req_x_000001"))
    assert snap.write_errors == 1 and len(snap.runs()) == 1


def test_record_fits_16_kib() -> None:
    rec = RunRecord(request_id="req_big_0001", message="m" * 50_000, sandbox_detail="d" * 9000)
    rec.obligation = {"index": 1, "description": "x" * 9000, "call": "c" * 9000, "result": "r" * 9000,
                      "predicate": "p" * 9000, "effect": "e" * 9000, "module": "m" * 9000}
    rec.approval = {"state": "approved", "decision": "approved_once", "feedback": "f" * 9000,
                    "rule": {"name": "n" * 9000, "reason": "r" * 9000}}
    doc = rec.to_json()
    assert len(json.dumps(doc, ensure_ascii=False).encode()) <= MAX_RECORD_BYTES
    assert len(doc["message"]) <= 1000 and len(doc["obligation"]["call"]) <= 300
    assert RunRecord.from_json(doc).request_id == "req_big_0001"


def test_output_capture_caps_and_marks() -> None:
    seen: list[str] = []
    cap = OutputCapture(seen.append, cap=10)
    cap.feed("héllo".encode())
    cap.feed(b"0123456789")
    cap.finish()
    assert cap.total == 16 and cap.truncated
    assert cap.text().endswith(truncation_marker(6) + "\n")
    assert "".join(seen).startswith("héllo0123")
    assert truncation_marker(6) == "[clauz3: output truncated after 1048576 bytes; 6 more bytes discarded]"


@pytest.mark.parametrize("url", ["http://10.0.0.1:80", "https://127.0.0.1:1", "http://example.com:80",
                                 "http://127.0.0.1:80/api", "ftp://127.0.0.1", "http://user:pw@127.0.0.1:1"])
def test_client_refuses_non_loopback_urls(url: str) -> None:
    with pytest.raises(ServiceURLError):
        parse_service_url(url)


def test_client_ignores_proxy_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clauz3.approvals.mock import MockApprovalService

    monkeypatch.setenv("HTTP_PROXY", "http://10.255.255.1:3128")
    monkeypatch.setenv("http_proxy", "http://10.255.255.1:3128")
    with MockApprovalService(tmp_path / "data", tmp_path) as svc:
        client = ApprovalClient(svc.url, svc.token, timeout=5)
        with pytest.raises(Exception) as exc:
            client.get("req_missing_1")
        assert getattr(exc.value, "status", None) == 404
        assert svc.token not in repr(client)


def test_device_files_get_file_rights_only(tmp_path: Path) -> None:
    rules = sandbox.build_rules(abi=5, workspace=tmp_path, scratch=tmp_path, system_paths=["/dev", "/nonexistent"])
    by_path = {r.path: r for r in rules}
    assert "/nonexistent" not in by_path
    null = by_path["/dev/null"]
    assert not null.is_dir and null.access & ~sandbox.FILE_RIGHTS == 0
    assert null.access & sandbox.WRITE_FILE
    work = by_path[os.path.realpath(tmp_path)]
    assert work.is_dir and work.access == sandbox.handled_rights(5)
    assert by_path["/dev"].access == sandbox.READ_RIGHTS


def test_sandbox_probe_honours_off_and_data_inside_workspace(tmp_path: Path) -> None:
    assert sandbox.probe(env={"CLAUZ3_SANDBOX": "off"}).mode == "unavailable"
    inside = sandbox.probe(workspace=tmp_path, data_dir=tmp_path / "data", env={})
    assert inside.mode == "unavailable" and "inside the workspace" in inside.detail


@pytest.mark.skipif(sandbox.probe(env={}).mode != "landlock", reason="kernel without Landlock ABI ≥ 1")
def test_applied_ruleset_restricts_a_child(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("no")
    work = tmp_path / "work"
    work.mkdir()
    code = (
        "import sys\nfrom pathlib import Path\nfrom clauz3.runs import sandbox\n"
        f"p = sandbox.probe(env={{}})\nrules = sandbox.build_rules(abi=p.abi, workspace=Path({str(work)!r}),"
        f" scratch=Path({str(work)!r}))\nsandbox.apply(rules, p.abi)\n"
        f"Path({str(work)!r}, 'ok').write_text('ok')\n"
        f"try:\n    open({str(outside)!r}).read()\nexcept PermissionError:\n    print('denied')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "denied", out.stderr
    assert (work / "ok").read_text() == "ok"


def test_progress_protocol_rejects_executing_before_gate(tmp_path: Path) -> None:
    sup = Supervisor(make_config(tmp_path, tmp_path, None, "x", verify_key="k"))

    class _NoLedger:
        def set_phase(self, *a: object, **k: object) -> None:
            pass

    r, w = os.pipe()
    try:
        sup._event(b'{"phase":"checking"}', w, 1e18, _NoLedger())
        with pytest.raises(_Kill) as exc:
            sup._event(b'{"phase":"executing"}', w, 1e18, _NoLedger())
        assert exc.value.reason == "protocol_error"
        with pytest.raises(_Kill):
            sup._event(b'{"phase":"dancing"}', w, 1e18, _NoLedger())
        with pytest.raises(_Kill):
            sup._event(b"not json", w, 1e18, _NoLedger())
    finally:
        os.close(r)
        os.close(w)
