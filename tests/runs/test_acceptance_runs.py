"""03 runs acceptance: `awaiting_approval` only after 201 `pending`, approval waiting outside the proof deadline,
and a `clauz3 run` killed while awaiting approval that is retried under the same request id."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from proc_tree import alive, cmdline  # tests/ is on sys.path: it holds this package

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.ledger import Ledger
from clauz3.runs.records import RunRecord
from clauz3.runs.supervisor import Supervisor

from .conftest import make_config, slow_program


def test_awaiting_approval_follows_201_pending_and_waiting_is_outside_the_proof_deadline(
        project: Path, data: Path) -> None:
    marker = project / "marker.txt"
    source = slow_program(f"mark({str(marker)!r})")
    # Scaled down from 60 s / 30 s: the approval arrives 35 s after submission, the proof deadline is 30 s (room
    # for the proof on a loaded machine; the submission follows the proof, so the run outlives the deadline).
    with MockApprovalService(data, project, delay_seconds=35) as svc:
        seen_pending: list[Any] = []

        def on_record(record: RunRecord) -> None:
            if record.phase == "awaiting_approval" and not seen_pending:
                assert svc.authority is not None
                found = [(r.request.request_id, r.state) for r in svc.authority.list()]
                seen_pending.append(found)

        phases: list[str] = []
        sup = Supervisor(make_config(project, data, svc, source, proof_timeout_seconds=30.0),
                         on_record=lambda r: (phases.append(r.phase), on_record(r)))
        started = time.monotonic()
        result = sup.run()
        waited = time.monotonic() - started
        assert result.record.phase == "completed", (result.record, result.diagnostics)
        assert waited > 30.0  # the run really outlived its proof deadline while it waited for approval
        assert seen_pending == [[(sup.request_id, "pending")]]  # the authority held it pending (201) first
        assert phases.index("submitting_approval") < phases.index("awaiting_approval") < phases.index("executing")
        assert marker.exists()

    marker.unlink()
    with MockApprovalService(data, project) as svc:  # decided at once: the answer is not `pending`
        phases = []
        result = Supervisor(make_config(project, data, svc, source),
                            on_record=lambda r: phases.append(r.phase)).run()
        assert result.record.phase == "completed"
        assert "awaiting_approval" not in phases and "submitting_approval" in phases


def _clauz3_run(project: Path, data: Path, svc: Any, request_id: str, source: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(data), CLAUZ3_CACHE=str(data.parent / "cache"), CLAUZ3_APPROVAL_SERVICE=svc.url,
               CLAUZ3_APPROVAL_TOKEN=svc.token, CLAUZ3_APPROVAL_VERIFY_KEY=svc.verify_key.text)
    (project / "prog.py").write_text(source, encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/slow/trusted", "--request-id", request_id,
         "prog.py"], cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


def _workers_in(project: Path) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or "clauz3.runs.worker" not in cmdline(int(entry)):
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if cwd == str(project) and alive(int(entry)):
            found.append(int(entry))
    return found


def _phase(data: Path, project: Path, request_id: str) -> str | None:
    ledger = Ledger.for_project(data, project)
    try:
        row = ledger.get(request_id)
        return None if row is None else str(row["phase"])
    finally:
        ledger.close()


def test_killed_cli_retried_with_the_same_id_keeps_one_card_and_executes_once(project: Path, data: Path) -> None:
    rid = "req_cli_kill_0001"
    log = project / "effects.log"
    source = slow_program(f"mark({str(log)!r})")
    with MockApprovalService(data, project, delay_seconds=8) as svc:
        first = _clauz3_run(project, data, svc, rid, source)
        for _ in range(1800):
            if _phase(data, project, rid) == "awaiting_approval":
                break
            assert first.poll() is None, first.communicate()
            time.sleep(0.05)
        else:
            raise AssertionError("the first run never reached awaiting_approval")
        workers = _workers_in(project)
        assert workers, "no worker process was found for the first run"
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
        for _ in range(1800):  # the orphaned worker notices its closed lifetime pipe and ends
            if not _workers_in(project):
                break
            time.sleep(0.05)
        assert not _workers_in(project)
        assert svc.authority is not None
        [card] = svc.authority.list()
        assert card.state == "pending"

        retry = _clauz3_run(project, data, svc, rid, source)  # well within the 15 s submitter grace
        out, err = retry.communicate(timeout=120)
        assert retry.returncode == 0, (out, err)
        assert "executed: main" in out
        records = svc.authority.list()
        assert [r.request.request_id for r in records] == [rid]  # the same record: one card
        assert records[0].state != "cancelled"
        assert len(svc.requests) == 1  # the retry re-attached; the mock saw one new request
    assert log.exists()
    ledger = Ledger.for_project(data, project)
    try:
        row = ledger.get(rid)
        assert row is not None and row["phase"] == "completed" and row["attempt"] == 2
        consumed = ledger.conn.execute("SELECT request_id FROM consumed_receipts").fetchall()
        assert consumed == [(rid,)]  # executed (claimed) exactly once
    finally:
        ledger.close()


def test_approval_wait_expiry_ends_the_runner_with_exit_2_approval_expired(project: Path, data: Path) -> None:
    marker = project / "marker.txt"
    with MockApprovalService(data, project, delay_seconds=60) as svc:  # nobody decides in time
        result = Supervisor(make_config(project, data, svc, slow_program(f"mark({str(marker)!r})"),
                                        approval_timeout_seconds=2)).run()
        assert (result.record.phase, result.record.reason, result.record.exit_code) == \
            ("refused", "approval_expired", 2), result.record
        assert svc.authority is not None
        [record] = svc.authority.list()
        assert record.state == "expired"
    assert not marker.exists()
