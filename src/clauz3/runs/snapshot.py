"""The conversation's run snapshot file (03 SNAP-2/3), kept for recovery after restarts.

``{"schema_version":1,"conversation_id":…,"runs":[record…]}`` (oldest first, newest 50), replaced
atomically (0600 temp file + rename) so readers always see valid JSON. Write failures are
swallowed: a snapshot is a convenience and never stops a run. Records are pushed to the host as
they change (DEC-5); this file is only read back when a bridge starts.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from clauz3.runs.ledger import Ledger, recorded_record
from clauz3.runs.records import CANCELLED, EXECUTING, FINAL_PHASES, UNCERTAIN, RunRecord
from clauz3.storage.atomic import write_atomic

KEEP = 50
PROVING_INTERVAL = 0.2


class SnapshotFile:
    def __init__(self, path: Path | None, conversation_id: str | None) -> None:
        self.path = path
        self.conversation_id = conversation_id
        self._runs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._last_write = 0.0
        self.write_errors = 0

    # --------------------------------------------------------------------------- loading

    def load(self, ledger: Ledger | None = None) -> None:
        """SNAP-3: read the old file, reconcile non-final runs with the ledger, keep the newest 50."""
        runs: list[dict[str, Any]] = []
        if self.path is not None:
            try:
                doc = json.loads(self.path.read_text(encoding="utf-8"))
                if isinstance(doc, dict) and isinstance(doc.get("runs"), list):
                    runs = [r for r in doc["runs"] if isinstance(r, dict) and isinstance(r.get("request_id"), str)]
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                runs = []
        with self._lock:
            for run in runs[-KEEP:]:
                if run.get("phase") not in FINAL_PHASES:
                    run = _reconcile(run, ledger)
                self._runs[run["request_id"]] = run
            self._trim()
        self.write(force=True)

    # --------------------------------------------------------------------------- updates

    def runs(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._runs.values())

    def get(self, request_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self._runs.get(request_id)

    def update(self, record: RunRecord, *, throttle: bool = False) -> None:
        """Store the record's JSON (moving it to the newest end) and write the file.

        ``throttle`` (during proving) limits writes to one per 200 ms; phase changes and final
        records always write.
        """
        doc = record.to_json()  # the file is the JSON edge: records are dicts only inside it
        with self._lock:
            self._runs.pop(record.request_id, None)
            self._runs[record.request_id] = doc
            self._trim()
        self.write(force=not throttle)

    def _trim(self) -> None:
        while len(self._runs) > KEEP:
            del self._runs[next(iter(self._runs))]

    def document(self) -> dict[str, Any]:
        return {"schema_version": 1, "conversation_id": self.conversation_id, "runs": self.runs()}

    def write(self, *, force: bool = True) -> None:
        if self.path is None:
            return
        now = time.monotonic()
        if not force and now - self._last_write < PROVING_INTERVAL:
            return
        self._last_write = now
        data = json.dumps(self.document(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        try:
            write_atomic(self.path, data, mode=0o600)
        except OSError:
            self.write_errors += 1


def _reconcile(run: dict[str, Any], ledger: Ledger | None) -> dict[str, Any]:
    rid = run["request_id"]
    row = ledger.get(rid) if ledger is not None else None
    if row is not None and row["phase"] in FINAL_PHASES:
        out = recorded_record(row).to_json()
        out["recorded"] = run.get("recorded", False)
        return out
    if row is not None and row["phase"] == EXECUTING and ledger is not None and ledger.lock_free(rid):
        message = "The bridge restarted while this run was executing; its outcome is unknown."
        ledger.mark_uncertain_if_executing(rid, message)
        return {**run, "phase": UNCERTAIN, "reason": "worker_lost", "exit_code": None, "message": message}
    # Earlier phases: shown cancelled; the ledger row stays resumable under the same request id.
    return {**run, "phase": CANCELLED, "reason": "bridge_restarted", "exit_code": None,
            "message": "The bridge restarted before this run finished; run it again with the same request id."}
