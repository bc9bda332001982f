"""The ``run`` and ``status`` tools (03 MCP-4, MCP-5, MCP-6) over the runs supervisor.

One active run per bridge. Every record change is pushed to the host at once (00 DEC-5), written to
the conversation's snapshot file (SNAP-2) and offered to the caller's progress slot (MCP-7). The
credentials stay in memory (CRED-4) and go to the worker on its stdin only (CRED-5).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.bridge.errors import BridgeError
from clauz3.bridge.lifetime import Credentials
from clauz3.runs.records import FINAL_PHASES, RunRecord, compact
from clauz3.runs.snapshot import SnapshotFile
from clauz3.runs.supervisor import RunConfig, Supervisor

NO_LIBRARIES_TEXT = "No project libraries selected; ask the user to add libraries."
NO_RUNS = "No runs yet."
SOURCE_NAME = "program.py"

RecordSink = Callable[[RunRecord], None]


class UnknownRun(BridgeError, LookupError):
    pass


@dataclass
class RunOutcome:
    """What the ``run`` tool returns: text (MCP-4) and structuredContent (record + stdout + stderr)."""

    record: RunRecord
    stdout: str = ""
    stderr: str = ""
    notes: list[str] = field(default_factory=list)  # where the program's Python differs from clauz3's

    def structured(self) -> dict[str, Any]:
        return {**self.record.to_json(), "stdout": self.stdout, "stderr": self.stderr, "notes": self.notes}

    def text(self) -> str:
        rec = self.record.to_json()  # the MCP edge: the text shows the record's JSON form
        exit_code = rec.get("exit_code")
        lines = [f"request id: {rec['request_id']}", f"phase: {rec['phase']}",
                 f"exit code: {'-' if exit_code is None else exit_code}",
                 f"sandbox: {rec.get('sandbox') or 'unavailable'}"
                 + (f" ({rec['sandbox_detail']})" if rec.get("sandbox_detail") else "")]
        if self.stdout:
            lines += ["--- output ---", self.stdout.rstrip("\n")]
        if self.stderr:
            lines += ["--- errors ---", self.stderr.rstrip("\n")]
        if self.notes:  # the agent learns where its program's Python means something else here
            lines += ["--- notes ---", *self.notes]
        if rec.get("phase") != "completed" and (rec.get("reason") or rec.get("message")):
            lines.append(f"reason: {rec.get('reason') or '-'}")
            if rec.get("message"):
                lines.append(str(rec["message"]))
        lines.append(f"Status: {compact(rec)}")
        return "\n".join(lines)


def _immediate(request_id: str | None, reason: str, message: str, conversation_id: str | None,
               timeout: int, proof_timeout: float) -> RunOutcome:
    """A refusal decided before any worker exists (no_libraries, run_active): no record is stored."""
    from clauz3.approvals.requests import new_request_id

    rec = RunRecord(request_id=request_id or new_request_id(), conversation_id=conversation_id,
                    proof_timeout_seconds=proof_timeout, execution_timeout_seconds=timeout)
    rec.end(reason, message)
    return RunOutcome(rec)


@dataclass
class _Active:
    supervisor: Supervisor
    listeners: list[RecordSink] = field(default_factory=list)


class RunService:
    """Owns the snapshot, the single active run and the host push; thread-safe."""

    def __init__(self, *, project: Path, trusted_roots: Sequence[str], import_roots: Sequence[str],
                 credentials: Credentials, push: RecordSink | None = None, data_dir: Path | None = None,
                 spawn: Any = None) -> None:
        self.project = project
        self.trusted_roots = list(trusted_roots)
        self.import_roots = list(import_roots)
        self.creds = credentials
        self.push = push
        self.data_dir = data_dir
        self.spawn = spawn
        status = Path(credentials.status_file) if credentials.status_file else None
        self.snapshot = SnapshotFile(status, credentials.conversation_id)
        self._lock = threading.Lock()
        self._active: _Active | None = None

    def load_snapshot(self) -> None:
        """SNAP-3 at start: reconcile non-final runs with the ledger, keep the newest 50."""
        from clauz3.runs.ledger import Ledger

        ledger = None
        try:
            ledger = Ledger.for_project(self._data(), self.project)
        except Exception:  # a missing or broken ledger still leaves the file readable
            ledger = None
        try:
            self.snapshot.load(ledger)
            cid = self.creds.conversation_id
            if ledger is not None and cid:
                for record in ledger.reconcile_conversation(cid):
                    self.snapshot.update(record)
                    if self.push is not None:
                        self.push(record)
        finally:
            if ledger is not None:
                ledger.close()

    def _data(self) -> Path:
        if self.data_dir is not None:
            return self.data_dir
        from clauz3.storage.paths import data_dir

        return data_dir()

    # ------------------------------------------------------------------------------- run

    def start(self, source: str, request_id: str | None, timeout: int,
              listener: RecordSink | None = None) -> Supervisor | RunOutcome:
        """A supervisor ready to ``run()``, or an immediate outcome (MCP-5, MCP-6)."""
        creds = self.creds
        if not self.trusted_roots:
            return _immediate(request_id, "no_libraries", NO_LIBRARIES_TEXT, creds.conversation_id, timeout,
                              creds.proof_timeout_seconds)
        config = RunConfig(
            source=source, project=self.project, trusted_roots=self.trusted_roots,
            import_roots=self.import_roots, service_url=creds.service_url,
            submission_token=creds.submission_token, verify_key=creds.verify_key, data_dir=self.data_dir,
            request_id=request_id, conversation_id=creds.conversation_id, source_name=SOURCE_NAME,
            workspace_generation=creds.workspace_generation, proof_timeout_seconds=creds.proof_timeout_seconds,
            execution_timeout_seconds=timeout, require_sandbox=creds.require_sandbox,
        )
        with self._lock:
            if self._active is not None:
                active = self._active.supervisor.request_id
                return _immediate(request_id, "run_active",
                                  f"Another run is active ({active}); wait for it to finish (see status) "
                                  "before starting a new one.", creds.conversation_id, timeout,
                                  creds.proof_timeout_seconds)
            kwargs: dict[str, Any] = {"spawn": self.spawn} if self.spawn is not None else {}
            sup = Supervisor(config, on_record=self._on_record, snapshot=self.snapshot, **kwargs)
            self._active = _Active(sup, [listener] if listener is not None else [])
        return sup

    def execute(self, sup: Supervisor) -> RunOutcome:
        """Run to the end (blocking); always releases the active slot."""
        try:
            result = sup.run()
        finally:
            with self._lock:
                if self._active is not None and self._active.supervisor is sup:
                    self._active = None
        return RunOutcome(result.record, result.stdout, result.stderr, list(result.notes))

    def _on_record(self, record: RunRecord) -> None:
        if self.push is not None:
            self.push(record)
        active = self._active
        if active is not None and record.request_id == active.supervisor.request_id:
            for listener in list(active.listeners):
                try:
                    listener(record)
                except Exception:
                    pass

    # ---------------------------------------------------------------------------- cancel

    def cancel(self, request_id: str | None = None, reason: str = "stopped") -> bool:
        """RUN-11 for the active run (when ``request_id`` is None or names it)."""
        active = self._active
        if active is None:
            return False
        if request_id is not None and active.supervisor.request_id != request_id:
            return False
        active.supervisor.cancel(reason)
        return True

    def kill_active_group(self) -> None:
        """LIFE-1: SIGKILL the active worker's process group right now (the bridge is about to exit)."""
        active = self._active
        pid = active.supervisor.worker_pid if active is not None else None
        if pid is not None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    @property
    def active_request_id(self) -> str | None:
        active = self._active
        return active.supervisor.request_id if active is not None else None

    # ---------------------------------------------------------------------------- status

    def records(self) -> list[dict[str, Any]]:
        """Newest first, ≤ 50; the active run's record is fresh (live ``elapsed_seconds``)."""
        runs = {r["request_id"]: r for r in (_sane(doc) for doc in self.snapshot.runs()) if r is not None}
        active = self._active
        if active is not None and not active.supervisor.record.final:
            runs[active.supervisor.request_id] = active.supervisor.record.to_json()
        return list(reversed(list(runs.values())))[:50]

    def status(self, request_id: str | None) -> tuple[str, dict[str, Any]]:
        records = self.records()
        if request_id is not None:
            records = [r for r in records if r.get("request_id") == request_id]
            if not records:
                raise UnknownRun(request_id)
        if not records:
            return NO_RUNS, {"runs": []}
        return "\n".join(status_line(r) for r in records), {"runs": records}


def _sane(doc: dict[str, Any]) -> dict[str, Any] | None:
    """A snapshot record as the status schema promises it (files from older bridges may lack fields)."""
    from clauz3.runs.records import ACTIVE_PHASES

    rid = doc.get("request_id")
    if not isinstance(rid, str) or doc.get("phase") not in (*ACTIVE_PHASES, *FINAL_PHASES):
        return None
    out = dict(doc)
    out["run_id"] = rid
    if not isinstance(out.get("reason"), str):
        out["reason"] = None
    code = out.get("exit_code")
    if isinstance(code, bool) or not isinstance(code, int):
        out["exit_code"] = None
    for key, kinds in (("message", str), ("conversation_id", str), ("sandbox", str), ("sandbox_detail", str),
                       ("approval", dict), ("obligation", dict), ("started_at", str), ("updated_at", str),
                       ("ended_at", str)):
        if key in out and out[key] is not None and not isinstance(out[key], kinds):
            out[key] = None
    for key, allowed in (("elapsed_seconds", (int, float)), ("attempt", int), ("effects_count", int),
                       ("recorded", bool), ("executed_partially", bool), ("output", dict),
                       ("proof_timeout_seconds", (int, float)), ("execution_timeout_seconds", (int, float)),
                       ("source_sha256", str), ("source_name", str), ("target", str)):
        if key in out and not isinstance(out[key], allowed):
            del out[key]
    return out


def status_line(rec: dict[str, Any]) -> str:
    exit_code = rec.get("exit_code")
    elapsed = rec.get("elapsed_seconds")
    elapsed_text = f"{float(elapsed):.1f}" if isinstance(elapsed, int | float) else "0.0"
    reason = rec.get("reason") or ""
    line = f"{rec.get('request_id')} {rec.get('phase')} exit={'-' if exit_code is None else exit_code} " \
           f"{elapsed_text}s {reason}"
    return line.rstrip()
