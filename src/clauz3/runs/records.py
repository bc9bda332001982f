"""Run records (03 SNAP-1): the one shape a run's state takes in the ledger, snapshot and MCP results.

A record never holds a token, key or receipt string (CRED-6); receipts appear only by nonce in the
ledger. :meth:`RunRecord.to_json` clamps free text so a record serialises to at most 16 KiB.
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """A run's phase (03 SNAP-1), in pipeline order; the only list of them in clauz3.

    The values are external names (MCP results, the ledger, the page, the terminal): never rename
    one. Everything else — the bridge's schema, the host, the terminal, the page (served by the
    workspace, see ``sessions/web/page_constants.py``) — derives its lists from this enum.
    """

    CHECKING = "checking"
    PROVING = "proving"
    SUBMITTING_APPROVAL = "submitting_approval"
    AWAITING_APPROVAL = "awaiting_approval"
    EXECUTING = "executing"
    COMPLETED = "completed"
    REFUSED = "refused"
    FAILED = "failed"
    CANCELLED = "cancelled"
    UNCERTAIN = "uncertain"

    @property
    def final(self) -> bool:
        return self in FINAL_PHASES


# Short names of the members, kept for the runs package's own imports.
CHECKING, PROVING, EXECUTING = Phase.CHECKING, Phase.PROVING, Phase.EXECUTING
SUBMITTING, AWAITING = Phase.SUBMITTING_APPROVAL, Phase.AWAITING_APPROVAL
COMPLETED, REFUSED, FAILED, CANCELLED, UNCERTAIN = (
    Phase.COMPLETED, Phase.REFUSED, Phase.FAILED, Phase.CANCELLED, Phase.UNCERTAIN)

FINAL_PHASES: frozenset[Phase] = frozenset({COMPLETED, REFUSED, FAILED, CANCELLED, UNCERTAIN})
ACTIVE_PHASES: tuple[Phase, ...] = tuple(p for p in Phase if p not in FINAL_PHASES)
PRE_EXECUTION: tuple[Phase, ...] = tuple(p for p in ACTIVE_PHASES if p is not EXECUTING)
# Phases in which the program itself ran, so an exit code or a sandbox means something.
RAN_PHASES: frozenset[Phase] = frozenset({EXECUTING, COMPLETED, FAILED, UNCERTAIN})
# Final phases a run can reach after its claim but before its program returned (``executed_partially``).
EARLY_END_PHASES: frozenset[Phase] = frozenset({CANCELLED, FAILED, UNCERTAIN})

MAX_RECORD_BYTES = 16 * 1024
MAX_MESSAGE_CHARS = 1000

# §12.1: the phase and exit code each reason ends in (None exit = no process exit status applies).
REASONS: dict[str, tuple[Phase, int | None]] = {
    "proof_failed": (REFUSED, 1),
    "runtime_error": (FAILED, 1),
    "trusted_contract_violation": (FAILED, 1),
    "soundness_violation": (FAILED, 1),
    "libraries_changed": (REFUSED, 2),
    "structural": (REFUSED, 2),
    "import_not_allowed": (REFUSED, 2),
    "config": (REFUSED, 2),
    "no_libraries": (REFUSED, 2),
    "run_active": (REFUSED, 2),
    "idempotency_conflict": (REFUSED, 2),
    "sandbox_unavailable": (REFUSED, 2),
    "proof_deadline": (REFUSED, 2),
    "approval_expired": (REFUSED, 2),
    "service_error": (REFUSED, 2),
    "approval_cancelled": (CANCELLED, 2),
    "sandbox_failed": (REFUSED, 2),
    "execution_timeout": (FAILED, 2),
    "denied": (REFUSED, 3),
    "stopped": (CANCELLED, None),
    "submitter_cancelled": (CANCELLED, None),
    "worker_lost": (UNCERTAIN, None),
    "protocol_error": (REFUSED, 2),
}


def phase_and_exit(reason: str | None) -> tuple[Phase, int | None]:
    """Final phase and exit code of ``reason`` (``None`` → completed/0; ``receipt_*`` → refused/2)."""
    if reason is None:
        return COMPLETED, 0
    if reason.startswith("receipt_"):
        return REFUSED, 2
    return REASONS.get(reason, (REFUSED, 2))


def iso_now(ts: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if ts is None else ts, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _clip(text: str | None, limit: int) -> str | None:
    if text is None:
        return None
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_obligation(ob: dict[str, Any] | None) -> dict[str, Any] | None:
    """The SNAP-1 obligation object from a 01 §4.5 obligation (counterexample dropped, text clipped)."""
    if not ob:
        return None
    return {
        "index": ob.get("index"),
        "description": _clip(ob.get("description"), 1000),
        "line": ob.get("line"),
        "column": ob.get("column"),
        "call": _clip(ob.get("call"), 300),
        "effect": _clip(ob.get("effect"), 300),
        "predicate": _clip(ob.get("predicate"), 500),
        "conclusion": ob.get("conclusion"),
        "result": _clip(ob.get("result"), 1000),
        "source_kind": ob.get("source_kind"),
        "module": _clip(ob.get("module"), 300),
    }


@dataclass
class RunRecord:
    request_id: str
    conversation_id: str | None = None
    attempt: int = 1
    phase: Phase = CHECKING
    reason: str | None = None
    message: str | None = None
    exit_code: int | None = None
    recorded: bool = False
    source_sha256: str = ""
    source_name: str = "<stdin>"
    target: str = "main"
    started_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    ended_at: float | None = None
    proof_timeout_seconds: float = 30.0
    execution_timeout_seconds: int = 60
    approval: dict[str, Any] | None = None
    sandbox: str | None = None
    sandbox_detail: str | None = None
    obligation: dict[str, Any] | None = None
    effects_count: int = 0
    executed_partially: bool = False
    summary: dict[str, Any] | None = None  # the card's sentences: what the run did, or why it was refused
    output: dict[str, Any] = field(default_factory=lambda: {
        "stdout_bytes": 0, "stderr_bytes": 0, "stdout_truncated": False, "stderr_truncated": False})

    @property
    def final(self) -> bool:
        return self.phase in FINAL_PHASES

    def copy(self) -> RunRecord:
        """A snapshot of the record as it is now: listeners keep it while the run goes on."""
        return copy.deepcopy(self)

    def touch(self) -> None:
        self.updated_at = time.time()

    def end(self, reason: str | None, message: str | None = None, *, exit_code: int | None = None,
            phase: Phase | None = None) -> None:
        """Move to the final phase of ``reason`` (§12.1) unless an explicit phase/exit is given."""
        default_phase, default_exit = phase_and_exit(reason)
        self.phase = phase or default_phase
        self.reason = reason
        self.exit_code = default_exit if exit_code is None and phase is None else exit_code
        if message is not None:
            self.message = message
        self.ended_at = time.time()
        self.touch()

    def to_json(self) -> dict[str, Any]:
        end = self.ended_at if self.ended_at is not None else time.time()
        out: dict[str, Any] = {
            "request_id": self.request_id,
            "run_id": self.request_id,
            "conversation_id": self.conversation_id,
            "attempt": self.attempt,
            "phase": self.phase,
            "reason": self.reason,
            "message": _clip(self.message, MAX_MESSAGE_CHARS),
            "exit_code": self.exit_code,
            "recorded": self.recorded,
            "source_sha256": self.source_sha256,
            "source_name": _clip(self.source_name, 256),
            "target": self.target,
            "started_at": iso_now(self.started_at),
            "updated_at": iso_now(self.updated_at),
            "ended_at": iso_now(self.ended_at) if self.ended_at is not None else None,
            "elapsed_seconds": round(max(0.0, end - self.started_at), 3),
            "proof_timeout_seconds": self.proof_timeout_seconds,
            "execution_timeout_seconds": self.execution_timeout_seconds,
            "approval": _approval(self.approval),
            "sandbox": self.sandbox,
            "sandbox_detail": _clip(self.sandbox_detail, 500),
            "obligation": clip_obligation(self.obligation),
            "effects_count": self.effects_count,
            "executed_partially": self.executed_partially,
            "output": dict(self.output),
            "summary": _summary(self.summary),
        }
        # Issue 10 family 8: a run that ended before its program returned says why, and per end-state
        # guarantee whether it held on the state reached (the proof covers only runs that finish).
        out["ended_early"] = (out["summary"] or {}).get("ended_early")
        out["end_state"] = (out["summary"] or {}).get("end_state") or []
        return _fit(out)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> RunRecord:
        """Inverse of :meth:`to_json` (times back to Unix seconds); unknown keys are ignored."""
        rec = cls(request_id=str(doc["request_id"]))
        for name in ("conversation_id", "attempt", "phase", "reason", "message", "exit_code", "recorded",
                     "source_sha256", "source_name", "target", "proof_timeout_seconds",
                     "execution_timeout_seconds", "approval", "sandbox", "sandbox_detail", "obligation",
                     "effects_count", "executed_partially", "output", "summary"):
            if name in doc:
                setattr(rec, name, doc[name])
        rec.phase = Phase(rec.phase)  # ValueError on a phase this version does not know
        for name in ("started_at", "updated_at", "ended_at"):
            value = doc.get(name)
            setattr(rec, name, _parse_iso(value) if isinstance(value, str) else None)
        if rec.started_at is None:
            rec.started_at = time.time()
        if rec.updated_at is None:
            rec.updated_at = rec.started_at
        return rec


MAX_SUMMARY_BYTES = 8 * 1024


def _summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """The card's sentences within 8 KiB; what does not fit is counted, never dropped silently."""
    if not isinstance(summary, dict):
        return None
    out: dict[str, Any] = {"kind": summary.get("kind"), "line": summary.get("line"),
           "sentences": [str(x) for x in summary.get("sentences") or []],
           "warnings": [str(x) for x in summary.get("warnings") or []], "blocks": list(summary.get("blocks") or []),
           "excerpt": list(summary.get("excerpt") or [])}
    if summary.get("ended_early") is not None:  # issue 10 family 8: how end-state guarantees stood
        out["ended_early"] = str(summary["ended_early"])[:60]
        out["end_state"] = [{"guarantee": _clip(str(e.get("guarantee")), 300), "held": e.get("held")}
                            for e in (summary.get("end_state") or [])[:50] if isinstance(e, dict)]
    if isinstance(summary.get("omitted"), str):  # a summary cut before keeps saying so when read back
        out["omitted"] = summary["omitted"][:200]
    while out["blocks"] and len(json.dumps(out, ensure_ascii=False).encode()) > MAX_SUMMARY_BYTES:
        out["blocks"].pop()
        out["omitted"] = "Some long values are left out here; the run's output has them."
    dropped = 0
    while len(out["sentences"]) > 1 and len(json.dumps(out, ensure_ascii=False).encode()) > MAX_SUMMARY_BYTES:
        out["sentences"].pop()
        dropped += 1
        out["omitted"] = f"{dropped} more sentences are left out (too long for the run record)."
    if len(json.dumps(out, ensure_ascii=False).encode()) > MAX_SUMMARY_BYTES:
        out["sentences"] = [_clip(s, 2000) or "" for s in out["sentences"]]
        out["omitted"] = "This sentence is cut to fit the run record."
    return out


def _approval(approval: dict[str, Any] | None) -> dict[str, Any] | None:
    if approval is None:
        return None
    rule = approval.get("rule")
    return {
        "state": approval.get("state"),
        "decision": approval.get("decision"),
        "decided_by": approval.get("decided_by"),
        "rule": rule if isinstance(rule, dict) else None,
        "feedback": _clip(approval.get("feedback"), 1000),
    }


def _parse_iso(text: str) -> float | None:
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()
    except ValueError:
        return None


def _fit(out: dict[str, Any]) -> dict[str, Any]:
    """Shrink the largest free-text fields until the record is ≤ 16 KiB (rarely needed)."""
    if len(json.dumps(out, ensure_ascii=False).encode()) <= MAX_RECORD_BYTES:
        return out
    if out.get("obligation"):
        out["obligation"] = {k: (_clip(v, 120) if isinstance(v, str) else v) for k, v in out["obligation"].items()}
    if out.get("approval") and out["approval"].get("rule"):
        rule = out["approval"]["rule"]
        out["approval"]["rule"] = {k: (_clip(v, 120) if isinstance(v, str) else v) for k, v in rule.items()}
    out["message"] = _clip(out.get("message"), 300)
    out["sandbox_detail"] = _clip(out.get("sandbox_detail"), 120)
    return out


def compact(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
