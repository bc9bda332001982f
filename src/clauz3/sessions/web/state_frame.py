"""The page's ``clauz3/state`` object (02 §4.6), built at the web edge from the live
conversation's typed fields and its host; the conversation itself never builds page JSON.
"""

from __future__ import annotations

import os
from typing import Any

from clauz3.runs.records import ACTIVE_PHASES
from clauz3.sessions.conversation.agent_status import AgentStatus
from clauz3.sessions.conversation.conversation import ConversationRuntime
from clauz3.sessions.conversation.host_links import HostLinks
from clauz3.sessions.conversation.tutorials import tutorial_newer


def activity(conv: ConversationRuntime) -> dict[str, Any]:
    """What the progress indicator shows: the newest active run, else the agent's turn, else idle."""
    for run in reversed(conv.runs.values()):
        if run.phase in ACTIVE_PHASES:
            return {"kind": "run", "phase": run.phase, "request_id": run.request_id}
    if conv.status in (AgentStatus.BUSY, AgentStatus.CANCELLING):
        return {"kind": "agent"}
    return {"kind": "idle"}


def page_state(conv: ConversationRuntime, host: HostLinks) -> dict[str, Any]:
    saved = conv.saved
    caps = conv.capabilities
    return {
        "conversation_id": conv.id,
        "title": conv.title,
        "project": host.project,
        "project_name": os.path.basename(host.project) or host.project,
        "tutorial": host.tutorial,
        "tutorial_newer": tutorial_newer(host.project, host.tutorial),
        "generation": host.generation,
        "agent": conv.agent,
        "agent_label": conv.label,
        "unrestricted": (saved.mode or host.config.mode) == "unrestricted",
        "model": saved.model or host.config.model or "Agent default",
        "requested_model": host.config.model,
        "providers": host.providers(conv.agent),
        "capabilities": {"load_session": caps.load_session, "images": caps.images, "files": caps.files},
        "session_id": conv.session_id,
        "agent_status": str(conv.status),
        "activity": activity(conv),
        "turn": conv.turn,
        "history_bytes": conv.history_bytes,
        "history_limited": conv.history_limited,
        "error": conv.error,
        "error_detail": conv.error_detail,
        "resume_notice": conv.resume_notice,
        "libraries": list(saved.libraries),
        "library_fingerprint": saved.library_fingerprint,
        "libraries_changed": saved.libraries_changed,
        "approvals_paused": saved.approvals_paused,
        "operation": host.operation,
        "attachments": list(conv.attachments),
        "runs": [run.to_json() for run in conv.runs.values()],  # the runs become JSON here, at the web edge
    }
