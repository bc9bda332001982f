"""Conversation records for ``clauz3 start`` and ``clauz3 resume`` before any service starts (05 §13).

Everything here runs before the approval service exists: finding a conversation by id in any
project (TRM-5), validating its record strictly (TRM-6), the three selection fingerprints
(TRM-2) and their comparison on resume (TRM-8, TRM-9). It reads and writes ``conversations.sqlite``
only through the store's API (:mod:`clauz3.sessions.store.store`, the file's one owner): read-only lookups
first, then :class:`~clauz3.sessions.store.store.ConversationStore` for :func:`create_terminal_conversation`
and :func:`prepare_resume`.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.layers.liberrors import LibraryError
from clauz3.layers.selection import library_hashes, selection_fingerprint
from clauz3.layers.skills import SkillsError, skills_fingerprint, snapshot_skills
from clauz3.sessions.agent.providers import AGENTS
from clauz3.sessions.conversation.libraries import new_selection, selection_fields
from clauz3.sessions.errors import SessionError
from clauz3.sessions.store.store import (
    Conversation,
    ConversationStore,
    StoreError,
    newest_elsewhere,
    turned_conversations,
)
from clauz3.sessions.store.store import project_of as stored_project_of

# TRM-5: the one id form, browser and terminal alike (any UUID version is *recognised* as an id;
# unknown ones are then reported as unknown rather than malformed).
ID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
MODES = ("restricted", "unrestricted")
NO_POLICY = "none"


class RecordError(SessionError):
    """An expected refusal of a saved conversation record: one sentence (``resume`` exits 2 for it)."""


def is_id(text: str) -> bool:
    return ID_RE.fullmatch(text) is not None


# -- fingerprints (TRM-2) ------------------------------------------------------------------------


def policy_fingerprint(path: str | None) -> str:
    """SHA-256 of the policy file's bytes, ``"none"`` without a policy, ``"missing"`` when unreadable."""
    if not path:
        return NO_POLICY
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return "missing"


def skills_fingerprint_of(dirs: list[str]) -> str:
    """SHA-256 of a fresh snapshot of the skill folders (``"unreadable"`` when the snapshot fails)."""
    try:
        return skills_fingerprint(snapshot_skills(dirs) if dirs else [])
    except SkillsError:
        return "unreadable"


def selection_record(state: dict[str, Any], policy: str | None, skills_dirs: list[str]) -> dict[str, Any]:
    """SEL-6 ``selection``: the three fingerprints plus the policy path and skill folders used."""
    return {"libraries": state.get("library_fingerprint"), "policy": policy_fingerprint(policy),
            "skills": skills_fingerprint_of(skills_dirs), "policy_path": policy, "skills_dirs": list(skills_dirs)}


# -- reading records ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    id: str
    agent: str
    updated: float
    title: str


def list_line(row: Listed) -> str:
    """TRM-5 ``--list``: ``<uuid>  <agent>  <updated>  <title>``."""
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.updated))
    return f"{row.id}  {row.agent}  {stamp}  {row.title}"


def list_conversations(data: Path, project: str) -> list[Listed]:
    """The project's conversations with at least one turn, newest first."""
    try:
        rows = turned_conversations(data, project)
    except StoreError as exc:
        raise RecordError(str(exc)) from None
    return [Listed(r.id, r.agent, r.updated, r.title) for r in rows]


def project_of(data: Path, conversation_id: str) -> str | None:
    """The project a conversation belongs to, looked up across every project (TRM-5)."""
    try:
        return stored_project_of(data, conversation_id)
    except StoreError as exc:
        raise RecordError(str(exc)) from None


def no_conversation_here(data: Path, project: str) -> str:
    """Issue 22: "none here" names where the saved conversations are (the tutorials live in the data
    folder, not in the folder the person is in) and the command that resumes one from anywhere."""
    text = "no saved conversation for this project; start one with clauz3 start <agent>"  # 05 TRM-5's words
    try:
        elsewhere = newest_elsewhere(data, project)
    except StoreError:
        return text
    if not elsewhere:
        return text
    places = "; ".join(f"{other} ({count})" for other, _newest, count in elsewhere)
    other, newest, _count = elsewhere[0]
    return (f"{text}. This folder is {project}; saved conversations are in: {places}. Resume the newest of {other} with "
            f"clauz3 resume {newest}, or cd into that folder and run clauz3 resume --list")


def find_conversation(data: Path, cwd_project: str, conversation_id: str | None) -> tuple[str, str]:
    """(conversation id, project) for ``resume [UUID]``; raises :class:`RecordError` (TRM-5)."""
    if conversation_id is None:
        listed = list_conversations(data, cwd_project)
        if not listed:
            raise RecordError(no_conversation_here(data, cwd_project))
        return listed[0].id, cwd_project
    if not is_id(conversation_id):
        raise RecordError(f"not a conversation id: {conversation_id}")
    project = project_of(data, conversation_id)
    if project is None:
        raise RecordError(f"no clauz3 conversation with id {conversation_id}")
    return conversation_id, project


# -- TRM-6 validation ---------------------------------------------------------------------------


@dataclass
class Record:
    """A validated conversation record, with what resume needs from its state."""

    row: Conversation
    mode: str
    libraries: list[str]
    policy: str | None
    skills_dirs: list[str]
    requested_model: str | None
    selection: dict[str, Any] = field(default_factory=dict)


def _abs_path(value: Any, what: str, cid: str) -> str:
    if not isinstance(value, str) or not os.path.isabs(value) or "\x00" in value:
        raise RecordError(f"conversation {cid} has an invalid record: {what} is not an absolute path")
    return value


def validate(row: Conversation) -> Record:
    """TRM-6: types, known agent, absolute paths; a missing project folder names it."""
    cid = row.id
    bad = f"conversation {cid} has an invalid record"
    if row.agent not in AGENTS:
        raise RecordError(f"{bad}: unknown agent {row.agent!r}")
    if row.frontend not in ("browser", "terminal"):
        raise RecordError(f"{bad}: unknown frontend {row.frontend!r}")
    project = _abs_path(row.project, "project", cid)
    if not os.path.isdir(project):
        raise RecordError(f"the project folder of conversation {cid} is missing: {project}")
    state = row.state
    if not isinstance(state, dict):
        raise RecordError(f"{bad}: state is not an object")
    mode = state.get("mode", "restricted")
    if mode not in MODES:
        raise RecordError(f"{bad}: unknown mode {mode!r}")
    libraries = state.get("libraries", [])
    if not isinstance(libraries, list) or not all(isinstance(d, str) for d in libraries):
        raise RecordError(f"{bad}: libraries is not a list of names")
    selection = state.get("selection", {})
    if not isinstance(selection, dict):
        raise RecordError(f"{bad}: selection is not an object")
    policy = selection.get("policy_path")
    if policy is not None:
        policy = _abs_path(policy, "policy path", cid)
    dirs = selection.get("skills_dirs", [])
    if not isinstance(dirs, list):
        raise RecordError(f"{bad}: skills_dirs is not a list")
    dirs = [_abs_path(d, "skills folder", cid) for d in dirs]
    model = state.get("requested_model")
    if model is not None and not isinstance(model, str):
        raise RecordError(f"{bad}: requested_model is not a string")
    session_id = state.get("session_id")
    if session_id is not None and not isinstance(session_id, str):
        raise RecordError(f"{bad}: session_id is not a string")
    return Record(row, mode, sorted(libraries), policy, dirs, model, selection)


# -- TRM-8 / TRM-9 --------------------------------------------------------------------------------


@dataclass
class Changes:
    libraries: list[str] = field(default_factory=list)  # e.g. "removed env", "updated filesystem"
    removed: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    policy: bool = False
    policy_detail: str = "policy file edited"
    skills: bool = False

    @property
    def libraries_changed(self) -> bool:
        return bool(self.libraries)

    @property
    def any(self) -> bool:
        return self.libraries_changed or self.policy or self.skills

    def message(self, cid: str) -> str:
        """TRM-8's one line (without ``error: ``)."""
        what, detail = [], []
        if self.libraries_changed:
            what.append("libraries")
            detail += self.libraries
        if self.policy:
            what.append("policy")
            detail.append(self.policy_detail)
        if self.skills:
            what.append("skill documents")
            detail.append("skill documents edited")
        names = " and ".join(what) if len(what) <= 2 else ", ".join(what[:-1]) + " and " + what[-1]
        return (f"cannot resume {cid}: {names} changed since it last ran ({'; '.join(detail)}); review it in "
                "clauz3 ui, start a new conversation, or pass --accept-changes")


def compare(record: Record, data: Path) -> Changes:
    """TRM-8: recompute the three fingerprints from the project, policy path and skill folders."""
    project = Path(record.row.project)
    state = record.row.state
    changes = Changes()
    raw_saved_hashes = state.get("library_hashes")
    saved_hashes = raw_saved_hashes if isinstance(raw_saved_hashes, dict) else {}
    try:
        now = library_hashes(project, record.libraries, data)
        fingerprint: str | None = selection_fingerprint(project, record.libraries, data) if record.libraries else None
    except LibraryError:
        now, fingerprint = {d: "unreadable" for d in record.libraries}, "unreadable"
    for domain in record.libraries:
        if now.get(domain) == "missing":
            changes.removed.append(domain)
            changes.libraries.append(f"removed {domain}")
        elif now.get(domain) != saved_hashes.get(domain):
            changes.updated.append(domain)
            changes.libraries.append(f"updated {domain}")
    if record.libraries and not changes.libraries and fingerprint != state.get("library_fingerprint"):
        changes.libraries.append("library files changed")
    if state.get("libraries_changed") is True and not changes.libraries:
        changes.libraries.append("library files changed")
    saved = record.selection
    policy_now = policy_fingerprint(record.policy)
    if "policy" in saved and saved.get("policy") != policy_now:
        changes.policy = True
        if policy_now == "missing":
            changes.policy_detail = "policy file removed"
    if "skills" in saved and saved.get("skills") != skills_fingerprint_of(record.skills_dirs):
        changes.skills = True
    return changes


def accept_changes(record: Record, changes: Changes, data: Path) -> dict[str, Any]:
    """TRM-9: the state continuing with the current files, new fingerprints, the SEL-14 note, the pause."""
    state = dict(record.row.state)
    project = record.row.project
    kept = [d for d in record.libraries if d not in changes.removed]
    state.update(selection_fields(project, data, kept))
    state["libraries_changed"] = False
    if changes.libraries_changed:
        state.setdefault("library_changes", [])
        state["library_changes"] = [*state["library_changes"], {
            "kind": "widen", "domains": kept, "added": [], "removed": list(changes.removed),
            "updated": list(changes.updated) or ([] if changes.removed else kept)}]
    if changes.libraries_changed or changes.policy:
        state["approvals_paused"] = True
    policy = record.policy if record.policy and os.path.isfile(record.policy) else None
    state["selection"] = selection_record(state, policy, record.skills_dirs)
    return state


def prepare_resume(data: Path, record: Record, state: dict[str, Any] | None) -> None:
    """Save ``state`` (when given) and make the conversation the project's newest, so the service
    reopens exactly it (STORE-11)."""
    store = ConversationStore.open(data, record.row.project)
    try:
        if state is not None:
            store.set_state(record.row.id, state)
        store.rename(record.row.id, record.row.title)  # also stamps ``updated``
    finally:
        store.close()


def load_record(data: Path, conversation_id: str, project: str) -> Record:
    store = ConversationStore.open(data, project)
    try:
        row = store.get(conversation_id)
    finally:
        store.close()
    if row is None:
        raise RecordError(f"no clauz3 conversation with id {conversation_id}")
    return validate(row)


# -- start (TRM-2) ------------------------------------------------------------------------------


def create_terminal_conversation(data: Path, project: str, *, agent: str, mode: str, policy: str | None,
                                 skills_dirs: list[str], requested_model: str | None) -> tuple[Conversation, str | None]:
    """A new ``frontend: "terminal"`` conversation with the SEL-3 selection; (row, SEL-4 notice)."""
    state, dropped = new_selection(project, data, None)
    state["mode"] = mode
    state["requested_model"] = requested_model
    state["selection"] = selection_record(state, policy, skills_dirs)
    store = ConversationStore.open(data, project)
    try:
        row = store.create(agent=agent, state=state, frontend="terminal")
    finally:
        store.close()
    return row, dropped
