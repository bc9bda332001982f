"""A conversation's library selection on the host (05 SEL-4..SEL-15, 02 §4.3 ``clauz3/libraries``).

The pure rules live in :mod:`clauz3.layers.selection`; this module applies them to the live
conversation: the selection a new conversation starts with, the fingerprint check before prompts
and runs (SEL-8, SEL-15), and the ``clauz3/libraries`` command (classify → confirm → apply).
Saved state fields (SEL-6): ``libraries``, ``library_hashes``, ``library_fingerprint``,
``libraries_changed``, ``approvals_paused``, ``library_changes`` (undelivered changes) and
``selection``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from clauz3.layers.liberrors import LibraryError
from clauz3.layers.selection import (
    SelectionChange,
    change_note,
    classify_change,
    defaults_for_new_conversation,
    fingerprint_changed,
    library_hashes,
    reduce_selection,
    selection_fingerprint,
)

from .notices import notice

log = logging.getLogger("clauz3.sessions.libraries")

CONFIRM_TEXT = ("Earlier messages may hold text from files or pages the agent read, and added library code can steer "
                "the agent, so automatic approvals stop for the rest of this conversation.")


def selection_fields(project: str, data: Path, domains: list[str]) -> dict[str, Any]:
    """``libraries``, ``library_hashes`` and ``library_fingerprint`` of ``domains`` as they are now."""
    chosen = sorted(set(domains))
    try:
        hashes = library_hashes(Path(project), chosen, data)
        fingerprint: str | None = selection_fingerprint(Path(project), chosen, data)
    except LibraryError as exc:
        log.info("library fingerprint unavailable: %s", exc)
        hashes, fingerprint = {d: "unreadable" for d in chosen}, None
    return {"libraries": chosen, "library_hashes": hashes, "library_fingerprint": fingerprint}


def new_selection(project: str, data: Path, domains: list[str] | None, tutorial: str | None = None
                  ) -> tuple[dict[str, Any], str | None]:
    """SEL-2/4/5: the state of a new conversation and the one-time ``libraries_dropped`` text."""
    dropped: str | None = None
    try:
        if domains is None:
            chosen, dropped = defaults_for_new_conversation(Path(project), data)
        else:
            chosen = reduce_selection(Path(project), domains, data)
    except LibraryError as exc:
        log.info("library selection unavailable: %s", exc)
        chosen = []
    state = selection_fields(project, data, chosen)
    state.update(libraries_changed=False, approvals_paused=False, library_changes=[])
    return state, dropped


def drifted(project: str, data: Path, saved: dict[str, Any]) -> bool:
    """SEL-8/SEL-15: the selected domains are gone or their files changed since they were recorded."""
    domains = list(saved.get("libraries") or [])
    fingerprint = saved.get("library_fingerprint")
    if not domains:
        return False
    if not isinstance(fingerprint, str):
        return True
    try:
        return fingerprint_changed(Path(project), domains, fingerprint, data)
    except LibraryError:
        return True


def pending_notes(saved: dict[str, Any]) -> list[str]:
    """TURN-3/SEL-14: every undelivered host note, library changes first (one line for all of them)."""
    changes = [SelectionChange(c.get("kind", "widen"), list(c.get("domains", [])), list(c.get("added", [])),
                               list(c.get("removed", [])), list(c.get("updated", [])))
               for c in saved.get("library_changes", []) if isinstance(c, dict)]
    notes = []
    line = change_note(changes) if changes else None
    if line:
        notes.append(line)
    notes += [str(n) for n in saved.get("host_notes", [])]
    return notes


def _change_json(change: SelectionChange) -> dict[str, Any]:
    return {"kind": change.kind, "domains": change.domains, "added": change.added, "removed": change.removed,
            "updated": change.updated}


async def apply_libraries(host: Any, params: dict[str, Any]) -> None:
    """``clauz3/libraries {conversation_id, domains, confirm?}`` (SEL-10..SEL-14)."""
    domains = params.get("domains")
    if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        host.refuse("bad_frame")
        return
    if host._stale(params):
        return
    if not host.idle:
        host.refuse("busy")
        return
    conv = host.conversation
    project, data = host.project, host.data_dir
    saved = conv.saved
    current = sorted(saved.get("libraries", []))
    started = conv.turn >= 1
    try:
        change = classify_change(Path(project), current, dict(saved.get("library_hashes") or {}), domains,
                                 started=started, data=data)
    except LibraryError as exc:
        host.publisher.send(notice("libraries_changed", str(exc), level="error"))
        return
    if change.kind == "noop" and saved.get("libraries_changed") is True:
        # SEL-15 recovery with the same domains: their files changed even if no tree hash did.
        change = SelectionChange("widen" if started else "apply", change.domains, [], [], list(change.domains))
    if change.kind == "noop":
        conv.changed()
        return
    if change.needs_confirm and params.get("confirm") is not True:
        added = ", ".join(change.added or change.updated)
        host.publisher.send({"method": "clauz3/confirm_libraries", "params": {
            "conversation_id": conv.id, "domains": change.domains, "added": change.added,
            "removed": change.removed, "updated": bool(change.updated),
            "text": f"Add {added} to this conversation? {CONFIRM_TEXT}"}})
        return
    await conv.end_agent()
    saved = conv.saved  # ending the agent may have saved (and so replaced) the state dict
    saved.update(selection_fields(project, data, change.domains))
    saved["libraries_changed"] = False
    if change.pauses:
        saved["approvals_paused"] = True
    host.authority.set_paused(conv.id, saved.get("approvals_paused") is True)
    if started:
        saved.setdefault("library_changes", []).append(_change_json(change))
        conv.retain({"method": "clauz3/libraries_changed",
                     "params": change.marker(paused=saved.get("approvals_paused") is True, turn=conv.turn)})
    conv.status = "stopped"
    conv.save_state()
    conv.ensure_agent()
