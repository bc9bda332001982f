"""A conversation's library selection on the host (05 SEL-4..SEL-15, 02 §4.3 ``clauz3/libraries``).

The pure rules live in :mod:`clauz3.layers.selection`; this module applies them to the live
conversation: the selection a new conversation starts with, the fingerprint check before prompts
and runs (SEL-8, SEL-15) and the notes a prompt carries; the ``clauz3/libraries`` command is in
:mod:`.library_command`.
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
    defaults_for_new_conversation,
    fingerprint_changed,
    library_hashes,
    reduce_selection,
    selection_fingerprint,
)
from clauz3.sessions.conversation.library_health import (
    manifest_problems,
    starting_without_broken,
    without_broken,
)
from clauz3.sessions.conversation.saved_state import SavedState

log = logging.getLogger("clauz3.sessions.conversation.libraries")

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
            # Issue 22: a library whose manifest is broken stays out of new conversations until fixed.
            problems = manifest_problems(project, data)
            left_out = starting_without_broken(problems, chosen)
            chosen = without_broken(chosen, problems)
            if left_out:
                dropped = f"{dropped} {left_out}" if dropped else left_out
        else:
            chosen = reduce_selection(Path(project), domains, data)
    except LibraryError as exc:
        log.info("library selection unavailable: %s", exc)
        chosen = []
    state = selection_fields(project, data, chosen)
    state.update(libraries_changed=False, approvals_paused=False, library_changes=[])
    return state, dropped


def drifted(project: str, data: Path, saved: SavedState) -> bool:
    """SEL-8/SEL-15: the selected domains are gone or their files changed since they were recorded."""
    domains = list(saved.libraries)
    fingerprint = saved.library_fingerprint
    if not domains:
        return False
    if not isinstance(fingerprint, str):
        return True
    try:
        return fingerprint_changed(Path(project), domains, fingerprint, data)
    except LibraryError:
        return True


def pending_notes(saved: SavedState) -> list[str]:
    """TURN-3/SEL-14: every undelivered host note, library changes first (one line for all of them)."""
    changes = [SelectionChange(c.get("kind", "widen"), list(c.get("domains", [])), list(c.get("added", [])),
                               list(c.get("removed", [])), list(c.get("updated", [])))
               for c in saved.library_changes]
    notes = []
    line = change_note(changes) if changes else None
    if line:
        notes.append(line)
    notes += list(saved.host_notes)
    return notes
