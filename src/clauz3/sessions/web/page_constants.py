"""Constants the workspace page needs (phases, their words, limits), served instead of copied into JavaScript.

The page reads them from a JSON block in ``index.html`` (``<script type="application/json"
id="page-constants">``), filled here once at startup, so they arrive with the page itself —
behind the same sign-in as every route, with no extra request. The run phases come from
:class:`clauz3.runs.records.Phase`, the one list of them; this module adds only the page's words.
"""

from __future__ import annotations

import json
from typing import Any

from clauz3.approvals.decisions import MAX_FEEDBACK
from clauz3.runs.records import EARLY_END_PHASES, RAN_PHASES, Phase
from clauz3.sessions.conversation.attachments import MAX_BYTES as MAX_ATTACHMENT_BYTES
from clauz3.sessions.conversation.attachments import MAX_UNSENT as MAX_ATTACHMENTS
from clauz3.sessions.conversation.conversation import MAX_PROMPT
from clauz3.sessions.conversation.ws_requests import MAX_TITLE

VERSION = 1
PLACEHOLDER = '<script type="application/json" id="page-constants">{}</script>'

# The run card's status pill for each phase.
PHASE_LABELS: dict[Phase, str] = {
    Phase.CHECKING: "Checking program",
    Phase.PROVING: "Proving guarantees",
    Phase.SUBMITTING_APPROVAL: "Requesting approval",
    Phase.AWAITING_APPROVAL: "Your approval needed",
    Phase.EXECUTING: "Executing approved action",
    Phase.COMPLETED: "Completed",
    Phase.REFUSED: "Did not execute",
    Phase.FAILED: "Failed",
    Phase.CANCELLED: "Stopped",
    Phase.UNCERTAIN: "Outcome unknown",
}
# The transcript's tool row of a `run` call once its run ended (issue 22: a stopped run is Stopped, never a
# red Failed); while the run is under way the card below carries its one status and the row says nothing.
ROW_LABELS: dict[Phase, str] = {
    Phase.REFUSED: "Refused",
    Phase.CANCELLED: "Stopped",
    Phase.COMPLETED: "Done",
    Phase.FAILED: "Failed",
    Phase.UNCERTAIN: "Unknown outcome",
}
# The header's activity line while a run is in an active phase (final phases show none).
ACTIVITY_LABELS: dict[Phase, str] = {
    **{phase: PHASE_LABELS[phase] for phase in Phase if not phase.final},
    Phase.AWAITING_APPROVAL: "Waiting for your approval",
}


def page_constants() -> dict[str, Any]:
    """The page's constants, versioned: ``phases`` in pipeline order with their words and kinds, and the
    ``limits`` the server enforces (the page checks them first only to say so before sending)."""
    return {
        "version": VERSION,
        "limits": {"prompt_chars": MAX_PROMPT, "attachment_bytes": MAX_ATTACHMENT_BYTES,
                   "attachments": MAX_ATTACHMENTS, "feedback_chars": MAX_FEEDBACK, "title_chars": MAX_TITLE},
        "phases": [{"name": phase.value, "label": PHASE_LABELS[phase], "activity": ACTIVITY_LABELS.get(phase),
                    "row": ROW_LABELS.get(phase),
                    "final": phase.final, "ran": phase in RAN_PHASES, "early_end": phase in EARLY_END_PHASES}
                   for phase in Phase],
    }


def page_html(template: str) -> str:
    """``index.html`` with the constants in its JSON block (``<`` escaped so no text closes the tag)."""
    if template.count(PLACEHOLDER) != 1:
        raise ValueError("index.html must hold exactly one empty page-constants block")
    text = json.dumps(page_constants(), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return template.replace(PLACEHOLDER, f'<script type="application/json" id="page-constants">{text}</script>')
