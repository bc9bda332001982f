"""The closed decision vocabulary (03 §6 DEC-1): defined once, checked at every boundary."""

from __future__ import annotations

from typing import Any

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


class UnknownDecision(ValueError):
    """Not in the vocabulary valid at this boundary; carries the allowed strings for the error body."""

    def __init__(self, value: object, allowed: tuple[str, ...]) -> None:
        shown = repr(value)[:80]
        super().__init__(f"unknown decision {shown}; allowed: {', '.join(allowed)}")
        self.allowed = allowed


def check_decision(value: Any, allowed: tuple[str, ...] = ALL_DECISIONS) -> str:
    """Exact, case-sensitive membership; anything else (wrong type too) raises ``UnknownDecision``."""
    if type(value) is not str or value not in allowed:
        raise UnknownDecision(value, allowed)
    return value


def is_approving(decision: str) -> bool:
    return decision in APPROVING
