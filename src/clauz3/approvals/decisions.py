"""The closed decision vocabulary (03 §6 DEC-1): defined once, checked at every boundary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clauz3.approvals.errors import ApprovalError

APPROVED_ONCE = "approved_once"
APPROVED_REMEMBER = "approved_remember"
AUTO_APPROVED = "auto_approved"
REJECTED = "rejected"
REJECTED_CONTRACT = "rejected_contract"
REQUEST_MORE = "request_more"
AUTO_REJECTED = "auto_rejected"

ALL_DECISIONS: tuple[str, ...] = (
    APPROVED_ONCE, APPROVED_REMEMBER, AUTO_APPROVED, REJECTED, REJECTED_CONTRACT, REQUEST_MORE, AUTO_REJECTED,
)
HUMAN_DECISIONS: tuple[str, ...] = (APPROVED_ONCE, APPROVED_REMEMBER, REJECTED, REJECTED_CONTRACT, REQUEST_MORE)
AUTOMATIC_DECISIONS: tuple[str, ...] = (AUTO_APPROVED, AUTO_REJECTED)
APPROVING: frozenset[str] = frozenset({APPROVED_ONCE, APPROVED_REMEMBER, AUTO_APPROVED})
# Human decisions a person may later promote into a remembered rule (PRO-11).
REMEMBERABLE: frozenset[str] = frozenset({APPROVED_ONCE, APPROVED_REMEMBER, REJECTED, REJECTED_CONTRACT})

LABELS: dict[str, str] = {
    APPROVED_ONCE: "Approved once",
    APPROVED_REMEMBER: "Approved and remembered",
    AUTO_APPROVED: "Approved automatically",
    REJECTED: "Rejected",
    REJECTED_CONTRACT: "Contract rejected",
    REQUEST_MORE: "More information requested",
    AUTO_REJECTED: "Rejected automatically",
}


class UnknownDecision(ApprovalError, ValueError):
    """Not in the vocabulary valid at this boundary; carries the allowed strings for the error body."""

    def __init__(self, value: object, allowed: tuple[str, ...]) -> None:
        shown = repr(value)[:80]
        super().__init__("unknown_decision", f"unknown decision {shown}; allowed: {', '.join(allowed)}",
                         allowed=list(allowed))
        self.allowed = allowed


def check_decision(value: Any, allowed: tuple[str, ...] = ALL_DECISIONS) -> str:
    """Exact, case-sensitive membership; anything else (wrong type too) raises ``UnknownDecision``."""
    if type(value) is not str or value not in allowed:
        raise UnknownDecision(value, allowed)
    return value


def is_approving(decision: str) -> bool:
    return decision in APPROVING


MAX_FEEDBACK = 4000
_DECISION_FIELDS = ("decision", "feedback", "remember")


@dataclass(frozen=True)
class HumanDecision:
    """A person's decision on one request (DEC-2): what the authority core takes.

    Built by :func:`parse_decision_body` at the HTTP edge, or directly by in-process callers; either
    way it cannot exist with a value outside DEC-2 (checked here, in field order).
    """

    decision: str
    feedback: str | None = None
    remember: bool = False

    def __post_init__(self) -> None:
        if type(self.decision) is not str or self.decision not in HUMAN_DECISIONS:
            raise ApprovalError("unknown_decision", "decision must be one of the human decisions",
                                allowed=list(HUMAN_DECISIONS))
        if self.feedback is not None and (type(self.feedback) is not str or len(self.feedback) > MAX_FEEDBACK):
            raise ApprovalError("invalid_request",
                                f"field feedback: must be a string of at most {MAX_FEEDBACK} characters")
        if type(self.remember) is not bool:
            raise ApprovalError("invalid_request", "field remember: must be true or false")


def parse_decision_body(body: object) -> HumanDecision:
    """DEC-2: exactly ``decision``, optional ``feedback`` (≤ 4000) and ``remember`` (bool)."""
    if type(body) is not dict:
        raise ApprovalError("invalid_request", "the decision body must be a JSON object")
    for key in body:
        if key not in _DECISION_FIELDS:
            raise ApprovalError("invalid_request", "field is not allowed in a decision: only decision, feedback "
                                "and remember are")
    if "decision" not in body:
        raise ApprovalError("invalid_request", "field decision: is required")
    remember = body.get("remember", False)
    return HumanDecision(body["decision"], body.get("feedback"), False if remember is None else remember)
