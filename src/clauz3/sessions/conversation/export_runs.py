"""Each run card in the Markdown export (issue 22 item 10): its program, plan, guarantees, decision and
outcome, in the turn it belongs to, in words a person reads (no reason codes).

The guarantees and the plan come from the approval record's presentation when the workspace still
holds it (``presentations``: request id → presentation), else from the words the run kept of its card
(:class:`RunCard`, saved with the run); the decision and the outcome come from the run record the
conversation saved, so all of them are there after a restart too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clauz3.runs.records import Phase
from clauz3.sessions.conversation.runs import ConversationRun, RunCard

DECISIONS = {
    "approved_once": "Approved once", "approved_remember": "Approved and remembered",
    "auto_approved": "Approved automatically", "rejected": "Rejected", "rejected_contract": "Contract rejected",
    "request_more": "More information requested", "auto_rejected": "Rejected automatically",
}
DECIDERS = {"human": "by you", "profile": "by your rule", "policy": "by the policy"}
PHASES: dict[str, str] = {  # keyed by the phases themselves: their names are spelled once (runs/records.py)
    Phase.COMPLETED: "Ran", Phase.REFUSED: "Did not run", Phase.FAILED: "Stopped with an error",
    Phase.CANCELLED: "Stopped", Phase.UNCERTAIN: "Unknown whether it finished",
}
REASONS = {
    "proof_failed": "a guarantee could not be proved, so nothing ran",
    "structural": "the program could not be checked, so nothing ran",
    "import_not_allowed": "the program imports a module clauz3 does not allow, so nothing ran",
    "denied": "it was not approved, so nothing ran",
    "approval_expired": "nobody decided before the approval expired, so nothing ran",
    "approval_cancelled": "the approval was cancelled before a decision, so nothing ran",
    "stopped": "it was stopped",
    "libraries_changed": "the libraries changed after it was written, so nothing ran",
    "runtime_error": "the program raised an error while it ran",
    "execution_timeout": "it ran longer than its time limit",
    "proof_deadline": "the proof took too long, so nothing ran",
}


def _texts(value: Any) -> list[str]:
    return [str(t) for t in value] if isinstance(value, list) else []


def _decision(approval: Mapping[str, Any] | None) -> str | None:
    if not approval:
        return None
    decision = approval.get("decision")
    if isinstance(decision, str) and decision:
        who = DECIDERS.get(str(approval.get("decided_by") or "human"), "")
        line = f"{DECISIONS.get(decision, decision.replace('_', ' ').capitalize())} {who}".strip()
        feedback = approval.get("feedback")
        return f"{line}. You wrote: “{feedback}”" if isinstance(feedback, str) and feedback else line
    state = approval.get("state")
    if state == "expired":
        return "Expired before a decision"
    if state == "cancelled":
        return "Cancelled before a decision"
    return None


def _outcome(doc: Mapping[str, Any]) -> str:
    phase = str(doc.get("phase") or "")
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    said = " ".join(_texts((summary or {}).get("sentences")))
    head = PHASES.get(phase) or f"Under way ({phase.replace('_', ' ') or 'starting'})"
    reason = doc.get("reason")
    if not said and isinstance(reason, str):
        said = REASONS.get(reason, reason.replace("_", " "))
        said = said[0].upper() + said[1:] + "."
    return f"{head}: {said}" if said else head


def run_lines(run: ConversationRun, presentation: Mapping[str, Any] | None) -> list[str]:
    """The Markdown lines of one run card."""
    doc = run.to_json()
    name = str(doc.get("source_name") or "program")
    target = str(doc.get("target") or "main")
    lines = [f"### Run {name}{'' if target == 'main' else f' ({target})'}", ""]
    card = RunCard.from_presentation(presentation) if presentation is not None else run.card
    if card.empty:
        card = run.card  # the workspace no longer holds the record (a restart): the run kept its words
    if card.plan:
        lines += [f"Plan: {' '.join(card.plan)}", ""]
    guarantees = card.guarantees
    if guarantees:
        lines += ["Proved guarantees:", *[f"- {g}" for g in guarantees], ""]
    approval = doc.get("approval") if isinstance(doc.get("approval"), dict) else None
    decision = _decision(approval)
    if decision:
        lines += [f"Decision: {decision}", ""]
    lines += [f"Outcome: {_outcome(doc)}", ""]
    return lines


def runs_of_turn(runs: list[ConversationRun], turn: int | None, presentations: Mapping[str, Mapping[str, Any]]
                 ) -> list[str]:
    out: list[str] = []
    for run in runs:
        if run.turn == turn:
            out += run_lines(run, presentations.get(run.request_id))
    return out
