"""The run ledger (03 §13): durable outcomes per request id, idempotency (IDM-4) and run locks.

File ``<data>/workspaces/<sha256(project)>/runs.sqlite`` (0600, dir 0700), owned by the runs package
with one migration list (:mod:`clauz3.runs.ledger_schema`). It also holds the ``consumed_receipts``
table (:mod:`clauz3.runs.nonces`), so the worker's claim (RCP-2) — consume the nonce and move the
row to ``executing`` — commits in one transaction on one file.

The supervisor writes phases and outcomes; the worker writes only the claim (IDM-5). Phase updates
from the supervisor never move a row backwards out of ``executing`` or out of a final phase: the
supervisor may read the worker's ``awaiting_approval`` event after the worker already claimed.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clauz3.approvals.canonical import canonical_json
from clauz3.runs.ledger_schema import open_ledger
from clauz3.runs.nonces import consume
from clauz3.runs.records import CHECKING, EXECUTING, FINAL_PHASES, PRE_EXECUTION, UNCERTAIN, RunRecord
from clauz3.storage.migrations import transaction
from clauz3.storage.paths import ledger_path

if TYPE_CHECKING:  # the bridge reads the ledger: receipts (and cryptography) load only to claim
    from clauz3.approvals.receipts import ReceiptClaims

HEAD_BYTES = 64 * 1024
PRUNE_AFTER_SECONDS = 30 * 24 * 3600
OWNER_LOST_MESSAGE = ("The run's owner stopped while it was executing; its outcome is unknown and it will not "
                      "run again.")


def payload_sha256(source: str, target: str, trusted_roots: Sequence[str], import_roots: Sequence[str],
                   execution_timeout_seconds: int) -> str:
    """IDM-2: covers source, target, ordered roots and execution timeout."""
    doc = {"source": source, "target": target, "trusted_roots": [str(p) for p in trusted_roots],
           "import_roots": [str(p) for p in import_roots], "execution_timeout_seconds": execution_timeout_seconds}
    return hashlib.sha256(canonical_json(doc)).hexdigest()


def head(data: bytes | str) -> str:
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    return raw[:HEAD_BYTES].decode("utf-8", "replace")


class RunLock:
    """IDM-3: an exclusive ``flock`` on ``run-locks/<request_id>.lock`` held while a run is owned.

    The descriptor is close-on-exec so a worker never inherits it: the lock dies with its owner.
    """

    def __init__(self, fd: int, path: Path) -> None:
        self.fd: int | None = fd
        self.path = path

    def release(self) -> None:
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            finally:
                os.close(self.fd)
                self.fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@dataclass
class Begin:
    """Outcome of :meth:`Ledger.begin`: ``kind`` ∈ new, resume, recorded, uncertain, conflict, active."""

    kind: str
    row: dict[str, Any] | None = None
    lock: RunLock | None = None
    attempt: int = 1


class Ledger:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = open_ledger(path)
        self.locks = path.parent / "run-locks"

    @classmethod
    def for_project(cls, data: Path, project: str | os.PathLike[str]) -> Ledger:
        return cls(ledger_path(data, project))

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------------------------ locks

    def try_lock(self, request_id: str) -> RunLock | None:
        self.locks.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.locks / f"{request_id}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return RunLock(fd, path)

    def lock_free(self, request_id: str) -> bool:
        lock = self.try_lock(request_id)
        if lock is None:
            return False
        lock.release()
        return True

    # ------------------------------------------------------------------------------- rows

    def get(self, request_id: str) -> dict[str, Any] | None:
        cur = self.conn.execute("SELECT * FROM runs WHERE request_id = ?", (request_id,))
        row = cur.fetchone()
        if row is None:
            return None
        return dict(zip([d[0] for d in cur.description], row, strict=True))

    def begin(self, request_id: str, *, project: str, conversation_id: str | None, payload_sha: str,
              source_sha: str, sandbox: str | None = None) -> Begin:
        """IDM-4. On ``new``/``resume`` the caller owns the returned lock until the run ends."""
        row = self.get(request_id)
        if row is not None and row["payload_sha256"] != payload_sha:
            return Begin("conflict", row)
        if row is not None and row["phase"] in FINAL_PHASES:
            return Begin("recorded", row)
        lock = self.try_lock(request_id)
        if lock is None:
            return Begin("active", row)
        try:
            now = time.time()
            with transaction(self.conn):
                row = self.get(request_id)
                if row is None:
                    self.conn.execute(
                        "INSERT INTO runs (request_id, project, conversation_id, payload_sha256, source_sha256,"
                        " phase, attempt, sandbox, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                        (request_id, project, conversation_id, payload_sha, source_sha, CHECKING, sandbox, now,
                         now),
                    )
                    return Begin("new", None, lock, 1)
                if row["payload_sha256"] != payload_sha:
                    lock.release()
                    return Begin("conflict", row)
                if row["phase"] in FINAL_PHASES:
                    lock.release()
                    return Begin("recorded", row)
                if row["phase"] == EXECUTING:
                    # The owner died after claiming execution: it may have run; never run it again.
                    self._set_uncertain(row, OWNER_LOST_MESSAGE)
                    lock.release()
                    return Begin("uncertain", self.get(request_id))
                attempt = int(row["attempt"]) + 1
                self.conn.execute(
                    "UPDATE runs SET attempt = ?, phase = 'checking', conversation_id = ?, updated_at = ?"
                    " WHERE request_id = ?",
                    (attempt, conversation_id, now, request_id),
                )
                return Begin("resume", self.get(request_id), lock, attempt)
        except BaseException:
            lock.release()
            raise

    def set_phase(self, request_id: str, phase: str, *, sandbox: str | None = None,
                  decision: str | None = None, record: dict[str, Any] | None = None) -> None:
        """A pre-execution phase change; ignored once the row is executing or final."""
        placeholders = ",".join("?" for _ in PRE_EXECUTION)
        with transaction(self.conn):
            self.conn.execute(
                f"UPDATE runs SET phase = ?, sandbox = COALESCE(?, sandbox), decision = COALESCE(?, decision),"
                f" record = COALESCE(?, record), updated_at = ? WHERE request_id = ? AND phase IN ({placeholders})",
                (phase, sandbox, decision, json.dumps(record) if record else None, time.time(), request_id,
                 *PRE_EXECUTION),
            )

    def claim(self, request_id: str, claims: ReceiptClaims, *, decision: str) -> None:
        """RCP-2: consume the nonce and move the row to ``executing`` in one transaction.

        A consumed nonce or request id, or a row that is not in a pre-execution phase, is
        ``receipt_replayed``: the request was executed (or given up) once already.
        """
        placeholders = ",".join("?" for _ in PRE_EXECUTION)
        with transaction(self.conn):
            consume(self.conn, claims)
            cur = self.conn.execute(
                f"UPDATE runs SET phase = 'executing', decision = ?, receipt_nonce = ?, updated_at = ?"
                f" WHERE request_id = ? AND phase IN ({placeholders})",
                (decision, claims.nonce, time.time(), request_id, *PRE_EXECUTION),
            )
            if cur.rowcount != 1:
                from clauz3.approvals.receipts import ReceiptError

                raise ReceiptError("receipt_replayed", "this request was already executed or ended")

    def finish(self, record: dict[str, Any], *, stdout: bytes | str = b"", stderr: bytes | str = b"",
               effects: list[str] | None = None) -> None:
        """Write the final outcome (the record is stored too, so a retry can return it verbatim)."""
        approval = record.get("approval") or {}
        with transaction(self.conn):
            self.conn.execute(
                "UPDATE runs SET phase = ?, reason = ?, exit_code = ?, decision = COALESCE(?, decision),"
                " sandbox = COALESCE(?, sandbox), updated_at = ?, stdout_head = ?, stderr_head = ?, effects = ?,"
                " record = ? WHERE request_id = ?",
                (record["phase"], record.get("reason"), record.get("exit_code"), approval.get("decision"),
                 record.get("sandbox"), time.time(), head(stdout), head(stderr),
                 json.dumps(effects or []), json.dumps(record), record["request_id"]),
            )

    def mark_uncertain_if_executing(self, request_id: str, message: str = OWNER_LOST_MESSAGE
                                    ) -> RunRecord | None:
        """An ``executing`` row → ``uncertain``/``worker_lost`` (columns and stored record); the new record."""
        with transaction(self.conn):
            row = self.get(request_id)
            if row is None or row["phase"] != EXECUTING:
                return None
            return RunRecord.from_json(self._set_uncertain(row, message))

    def _set_uncertain(self, row: dict[str, Any], message: str) -> dict[str, Any]:
        """Inside a transaction: record ``row`` uncertain, keeping the columns and the record consistent."""
        record = _record_of(row)
        record.update(phase=UNCERTAIN, reason="worker_lost", exit_code=None, message=message)
        self.conn.execute(
            "UPDATE runs SET phase = ?, reason = 'worker_lost', exit_code = NULL, updated_at = ?, record = ?"
            " WHERE request_id = ?",
            (UNCERTAIN, time.time(), json.dumps(record), row["request_id"]),
        )
        return record

    def reconcile_conversation(self, conversation_id: str) -> list[RunRecord]:
        """Runs of this conversation left ``executing`` by a process that died (lock free) → ``uncertain``.

        Called when a bridge starts: a service killed mid-execution left no supervisor to record the
        outcome, and the effect may have happened (03 RUN-12, QB-13). Returns the updated records.
        """
        rows = self.conn.execute(
            "SELECT request_id FROM runs WHERE conversation_id = ? AND phase = 'executing'", (conversation_id,)
        ).fetchall()
        changed: list[RunRecord] = []
        for (request_id,) in rows:
            record = self.mark_uncertain_if_executing(request_id) if self.lock_free(request_id) else None
            if record is not None:
                changed.append(record)
        return changed

    def prune(self, *, now: float | None = None) -> int:
        cutoff = (time.time() if now is None else now) - PRUNE_AFTER_SECONDS
        with transaction(self.conn):
            cur = self.conn.execute("DELETE FROM runs WHERE updated_at < ?", (cutoff,))
        return cur.rowcount


def _record_of(row: dict[str, Any]) -> dict[str, Any]:
    try:
        doc = json.loads(row.get("record") or "null")
    except json.JSONDecodeError:
        doc = None
    if isinstance(doc, dict):
        return doc
    return {"request_id": row["request_id"], "run_id": row["request_id"], "conversation_id": row["conversation_id"],
            "attempt": row["attempt"], "phase": row["phase"], "reason": row["reason"], "message": None,
            "exit_code": row["exit_code"], "recorded": False, "source_sha256": row["source_sha256"],
            "sandbox": row["sandbox"]}


def recorded_record(row: dict[str, Any]) -> RunRecord:
    """The stored outcome of a final row, marked ``recorded: true`` (IDM-4)."""
    doc = _record_of(row)
    doc.update(phase=row["phase"], reason=row["reason"], exit_code=row["exit_code"], recorded=True)
    return RunRecord.from_json(doc)

