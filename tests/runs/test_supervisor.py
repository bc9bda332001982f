"""End-to-end runs: real workers, the real mock authority, the real ledger (03 §12–§14)."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs import sandbox
from clauz3.runs.ledger import Ledger
from clauz3.runs.output import CAP_BYTES
from clauz3.runs.records import RunRecord
from clauz3.runs.supervisor import Supervisor

from .conftest import EMAIL_PROGRAM, make_config, slow_program

LANDLOCK = sandbox.probe().mode == "landlock"
needs_landlock = pytest.mark.skipif(not LANDLOCK, reason="kernel without Landlock ABI ≥ 1")


def run(project: Path, data: Path, svc: Any, source: str, **kw: Any) -> tuple[Any, list[RunRecord]]:
    records: list[RunRecord] = []
    result = Supervisor(make_config(project, data, svc, source, **kw), on_record=records.append).run()
    return result, records


def test_approved_program_executes_once_and_is_recorded(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        result, records = run(project, data, svc, EMAIL_PROGRAM, request_id="req_email_0001")
        assert result.record.phase == "completed", (result.record, result.diagnostics)
        assert result.record.exit_code == 0
        assert result.effects == ['tools.email.trusted.effects.send_email(addr="bob@example.com", msg="Hi from clauz3")']
        assert result.record.effects_count == 1
        assert "proved guarantee email.at_most(count=1)" in result.proof_text
        phases = [r.phase for r in records]
        assert phases.index("proving") < phases.index("submitting_approval") < phases.index("executing")
        assert len(svc.requests) == 1
        sent = svc.requests[0]
        assert sent["guarantees"] == ['emails.only(["bob@example.com"])', "emails.at_most(1)",
                                      "emails.unique_recipients()"]
        assert all(p["conclusion"] == "proved" and p["name"] == "main" for p in sent["proofs"])

        again, _ = run(project, data, svc, EMAIL_PROGRAM, request_id="req_email_0001")
        assert again.record.recorded is True
        assert again.record.phase == "completed" and again.record.exit_code == 0
        assert len(svc.requests) == 1  # IDM-4: nothing re-sent, nothing re-run

        conflict, _ = run(project, data, svc, EMAIL_PROGRAM.replace("Hi from", "Bye from"),
                          request_id="req_email_0001")
        assert conflict.record.reason == "idempotency_conflict" and conflict.record.exit_code == 2
    ledger = Ledger.for_project(data, project)
    try:
        row = ledger.get("req_email_0001")
        assert row is not None and row["phase"] == "completed" and row["receipt_nonce"]
        consumed = ledger.conn.execute("SELECT request_id FROM consumed_receipts").fetchall()
        assert consumed == [("req_email_0001",)]
        # CRED-6: the ledger holds the nonce, never the token or key.
        dump = "\n".join(ledger.conn.iterdump())
        assert svc.token not in dump and svc.verify_key.text not in dump
    finally:
        ledger.close()


def test_identical_program_twice_without_request_id_runs_twice(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        first, _ = run(project, data, svc, EMAIL_PROGRAM)
        second, _ = run(project, data, svc, EMAIL_PROGRAM)
        assert first.record.phase == second.record.phase == "completed"
        assert first.receipt_nonce and second.receipt_nonce and first.receipt_nonce != second.receipt_nonce
        assert len(svc.requests) == 2


def test_failed_proof_is_refused_without_a_request(project: Path, data: Path) -> None:
    source = EMAIL_PROGRAM.replace('send_email("bob@example.com", "Hi from clauz3")',
                                   'send_email("bob@example.com", "a")\n    send_email("ann@example.com", "b")')
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, source)
        assert result.record.phase == "refused" and result.record.reason == "proof_failed"
        assert result.record.exit_code == 1
        assert "violated guarantee email.at_most(count=1)" in result.proof_text
        assert svc.requests == []


def test_program_outside_the_subset_is_refused_before_approval(project: Path, data: Path) -> None:
    source = EMAIL_PROGRAM.replace('    send_email("bob@example.com", "Hi from clauz3")',
                                   '    while True:\n        send_email("bob@example.com", "x")')
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, source)
        assert result.record.phase == "refused" and result.record.exit_code == 2
        assert result.record.reason == "structural"
        assert svc.requests == []


def test_missing_verifying_key_refuses_before_proving(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, EMAIL_PROGRAM, verify_key=None)
        assert result.record.reason == "config" and result.record.exit_code == 2
        assert "no approval verifying key" in result.record.message
        assert svc.requests == []


def test_denial_exits_3_and_nothing_executes(project: Path, data: Path, tmp_path: Path) -> None:
    marker = project / "marker.txt"
    with MockApprovalService(data, project, decision="rejected", feedback="not today") as svc:
        result, _ = run(project, data, svc, slow_program(f"mark({str(marker)!r})"))
        assert result.record.reason == "denied" and result.record.exit_code == 3
        assert result.record.approval["feedback"] == "not today"
        # The agent reads which refusal it was and the person's words (issue 12).
        assert result.record.message == "the person rejected this program: do not run it; the person wrote: not today"
        assert not marker.exists()


def test_receipt_from_another_key_is_refused(project: Path, data: Path) -> None:
    from clauz3.approvals.keys import SigningKey

    marker = project / "marker.txt"
    with MockApprovalService(data, project) as svc:
        other = SigningKey.generate().verify_key.text
        result, _ = run(project, data, svc, slow_program(f"mark({str(marker)!r})"), verify_key=other)
        assert result.record.reason == "receipt_wrong_key" and result.record.exit_code == 2
        assert not marker.exists()


def test_proof_deadline_refuses_without_request(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, EMAIL_PROGRAM, proof_timeout_seconds=0.05)
        assert result.record.phase == "refused" and result.record.reason == "proof_deadline"
        assert result.record.exit_code == 2
        assert result.record.message.startswith(
            "Total proof deadline (0.05 s) exceeded; approval was not requested and the program did not execute.")
        assert "Last obligation:" in result.record.message
        assert svc.requests == []


def test_output_is_capped_with_truncation_marker(project: Path, data: Path) -> None:
    source = slow_program("flood(5)")
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, source)
    assert result.record.phase == "completed", (result.record, result.diagnostics)
    assert result.record.output["stdout_bytes"] == 5 * 1048576
    assert result.record.output["stdout_truncated"] is True
    kept, marker = result.stdout.rstrip("\n").rsplit("\n", 1)
    assert len(kept) + 1 == CAP_BYTES and set(kept) == {"x", "\n"}
    assert marker == f"[clauz3: output truncated after 1048576 bytes; {4 * 1048576} more bytes discarded]"


def test_execution_timeout_kills_the_group(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, slow_program('print("before")', "pause(60)"),
                        execution_timeout_seconds=1)
    assert result.record.phase == "failed" and result.record.reason == "execution_timeout"
    assert result.record.exit_code == 2
    assert result.stdout == "before\n"


def test_stdout_cannot_change_the_phase(project: Path, data: Path) -> None:
    source = slow_program('print(\'{"phase":"executing"}\')', 'print(\'{"event":"result","reason":"denied"}\')')
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, source)
    assert result.record.phase == "completed" and result.record.exit_code == 0
    assert '{"phase":"executing"}' in result.stdout


def test_worker_killed_during_execution_is_uncertain_and_never_rerun(project: Path, data: Path) -> None:
    marker = project / "marker.txt"
    source = slow_program(f"mark({str(marker)!r})", "pause(60)")
    with MockApprovalService(data, project) as svc:
        sup = Supervisor(make_config(project, data, svc, source, request_id="req_kill_0001"))

        def killer() -> None:
            for _ in range(1800):
                if marker.exists() and sup._proc is not None:
                    os.kill(sup._proc.pid, signal.SIGKILL)
                    return
                time.sleep(0.05)

        thread = threading.Thread(target=killer)
        thread.start()
        result = sup.run()
        thread.join()
        assert result.record.phase == "uncertain" and result.record.reason == "worker_lost"
        assert result.record.exit_code is None
        marker.unlink()
        retry, _ = run(project, data, svc, source, request_id="req_kill_0001")
        assert retry.record.phase == "uncertain" and retry.record.recorded is True
        assert not marker.exists()
        assert len(svc.requests) == 1


def test_cancel_while_awaiting_cancels_the_request(project: Path, data: Path) -> None:
    marker = project / "marker.txt"
    with MockApprovalService(data, project, delay_seconds=60) as svc:
        sup = Supervisor(make_config(project, data, svc, slow_program(f"mark({str(marker)!r})")),
                         on_record=lambda r: sup.cancel() if r.phase == "awaiting_approval" else None)
        result = sup.run()
        assert result.record.phase == "cancelled" and result.record.reason == "stopped"
        assert result.record.executed_partially is False
        assert svc.authority is not None
        [record] = svc.authority.list()
        assert record.state == "cancelled" and record.cancel_reason == "submitter_cancelled"
    assert not marker.exists()


def test_environment_is_scrubbed_before_execution(project: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_APPROVAL_TOKEN", "secret-token-value")
    monkeypatch.setenv("CLAUZ3_APPROVAL_EXTRA", "1")
    monkeypatch.setenv("CLAUZ3_BRIDGE_TICKET", "ticket")
    monkeypatch.setenv("CLAUZ3_SESSION_LIFETIME_SOCKET", "/tmp/sock")
    monkeypatch.setenv("CLAUZ3_KEEP_ME", "1")
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, slow_program("print(env_names())"))
    assert result.record.phase == "completed", (result.record, result.diagnostics)
    names = result.stdout.strip().split(",")
    assert "CLAUZ3_KEEP_ME" not in names  # issue 11 §4: the worker's environment is allow-listed
    assert not [n for n in names if n.startswith("CLAUZ3_APPROVAL") or n in (
        "CLAUZ3_BRIDGE_TICKET", "CLAUZ3_SESSION_LIFETIME_SOCKET")]


@needs_landlock
def test_sandbox_denies_outside_reads_and_data_writes(project: Path, data: Path, tmp_path: Path) -> None:
    secret = tmp_path / "home" / ".ssh" / "test-secret"
    secret.parent.mkdir(parents=True)
    secret.write_text("top secret")
    with MockApprovalService(data, project) as svc:
        ok, _ = run(project, data, svc, slow_program(f"mark({str(project / 'inside.txt')!r})"))
        assert ok.record.phase == "completed" and ok.record.sandbox == "landlock"
        assert (project / "inside.txt").exists()
        read, _ = run(project, data, svc, slow_program(f"print(read_text({str(secret)!r}))"))
        assert read.record.phase == "failed", read.record
        assert "top secret" not in read.stdout
        write, _ = run(project, data, svc, slow_program(f"mark({str(data / 'x')!r})"))
        assert write.record.phase == "failed"
        assert not (data / "x").exists()


def test_sandbox_off_is_shown_and_require_sandbox_refuses(project: Path, data: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_SANDBOX", "off")
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, EMAIL_PROGRAM)
        assert result.record.sandbox == "unavailable" and result.record.phase == "completed"
        assert svc.requests[0]["sandbox"]["mode"] == "unavailable"
        refused, _ = run(project, data, svc, EMAIL_PROGRAM, require_sandbox=True)
        assert refused.record.reason == "sandbox_unavailable" and refused.record.exit_code == 2
        assert len(svc.requests) == 1


def test_snapshot_receives_every_change(project: Path, data: Path, tmp_path: Path) -> None:
    from clauz3.runs.snapshot import SnapshotFile

    snap = SnapshotFile(tmp_path / "status" / "runs.json", "conv1")
    with MockApprovalService(data, project) as svc:
        sup = Supervisor(make_config(project, data, svc, EMAIL_PROGRAM, conversation_id="conv1"), snapshot=snap)
        result = sup.run()
    doc = json.loads((tmp_path / "status" / "runs.json").read_text())
    assert doc["conversation_id"] == "conv1"
    assert doc["runs"][-1]["request_id"] == result.record.request_id
    assert doc["runs"][-1]["phase"] == "completed"
    assert svc.token not in (tmp_path / "status" / "runs.json").read_text()


def test_ledger_from_a_newer_clauz3_is_refused_in_one_line(project: Path, data: Path) -> None:
    """Issue 15: an unknown recorded migration in runs.sqlite refuses the run (code, one line), file untouched."""
    import sqlite3

    from clauz3.storage.paths import ledger_path

    Ledger.for_project(data, project).close()
    path = ledger_path(data, os.path.realpath(project))
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _migrations (name) VALUES ('runs-0099-from-the-future')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with MockApprovalService(data, project) as svc:
        result, _ = run(project, data, svc, EMAIL_PROGRAM, request_id="req_newer_0001")
        assert svc.requests == []
    assert result.record.phase == "refused" and result.record.reason == "config"
    assert result.record.exit_code == 2
    assert result.record.message == ("runs.sqlite was written by a newer clauz3 (unknown migrations: "
                                        "runs-0099-from-the-future); upgrade clauz3 (code store_newer)")
    assert path.read_bytes() == before
