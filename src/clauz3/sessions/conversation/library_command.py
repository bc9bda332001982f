"""The ``clauz3/libraries`` command (05 SEL-10..SEL-14): classify the change, ask to confirm when
it widens a started conversation, then apply it and restart the agent with the new layer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from clauz3.approvals.authority import ApprovalAuthority
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.selection import SelectionChange, classify_change
from clauz3.sessions.conversation.agent_status import AgentStatus
from clauz3.sessions.conversation.conversation import ConversationRuntime
from clauz3.sessions.conversation.libraries import selection_fields
from clauz3.sessions.conversation.notices import notice
from clauz3.sessions.conversation.publisher import Publisher
from clauz3.sessions.conversation.ws_requests import Libraries

CONFIRM_TEXT = ("Earlier messages may hold text from files or pages the agent read, and added library code can steer "
                "the agent, so automatic approvals stop for the rest of this conversation.")


class LibrariesHost(Protocol):
    project: str
    data_dir: Path
    authority: ApprovalAuthority
    publisher: Publisher
    conversation: ConversationRuntime | None

    @property
    def idle(self) -> bool: ...

    def stale(self, conversation_id: str | None) -> bool: ...

    def refuse(self, code: str, **fmt: str) -> None: ...


def _change_json(change: SelectionChange) -> dict[str, Any]:
    return {"kind": change.kind, "domains": change.domains, "added": change.added, "removed": change.removed,
            "updated": change.updated}


async def apply_libraries(host: LibrariesHost, request: Libraries) -> None:
    """``clauz3/libraries {conversation_id, domains, confirm?}`` (SEL-10..SEL-14)."""
    domains = request.domains
    if host.stale(request.conversation_id):
        return
    if not host.idle:
        host.refuse("busy")
        return
    conv = host.conversation
    assert conv is not None  # not stale
    project, data = host.project, host.data_dir
    saved = conv.saved
    current = sorted(saved.libraries)
    started = conv.turn >= 1
    try:
        change = classify_change(Path(project), current, dict(saved.library_hashes), domains,
                                 started=started, data=data)
    except LibraryError as exc:
        host.publisher.send(notice("libraries_changed", str(exc), level="error"))
        return
    if change.kind == "noop" and saved.libraries_changed:
        # SEL-15 recovery with the same domains: their files changed even if no tree hash did.
        change = SelectionChange("widen" if started else "apply", change.domains, [], [], list(change.domains))
    if change.kind == "noop":
        conv.changed()
        return
    if change.needs_confirm and not request.confirm:
        added = ", ".join(change.added or change.updated)
        host.publisher.send({"method": "clauz3/confirm_libraries", "params": {
            "conversation_id": conv.id, "domains": change.domains, "added": change.added,
            "removed": change.removed, "updated": bool(change.updated),
            "text": f"Add {added} to this conversation? {CONFIRM_TEXT}"}})
        return
    await conv.end_agent()
    saved.set_selection(selection_fields(project, data, change.domains))
    saved.libraries_changed = False
    if change.pauses:
        saved.approvals_paused = True
    host.authority.set_paused(conv.id, saved.approvals_paused)
    if started:
        saved.library_changes.append(_change_json(change))
        conv.retain({"method": "clauz3/libraries_changed",
                     "params": change.marker(paused=saved.approvals_paused, turn=conv.turn)})
    conv.status = AgentStatus.STOPPED
    conv.save_state()
    conv.ensure_agent()
