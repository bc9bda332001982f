"""Undo of a run's file changes (05 FS-5, FS-6), for the web host.

``file_changes(journal_path)`` summarises a journal; ``undo(project_root, journal_path)`` walks it
backwards and restores each path whose current state still equals the run's last after-state for
it, following FS-1…FS-3 (component-wise opening without links, protected paths, atomic writes).
The host checks "no run is active" (409 ``busy``) and unknown/foreign run ids (404) itself;
:class:`AlreadyUndone` maps to 409 ``already_undone``.
"""

from __future__ import annotations

import base64
import os
import stat
from dataclasses import dataclass
from typing import Any

from clauz3.runs.errors import RunError
from clauz3.stdlib.filejournal import capture_state, same_state
from clauz3.stdlib.safefs import (
    FsError,
    atomic_write,
    is_protected,
    lstat_at,
    open_parent,
    project_fd,
    segments,
)
from clauz3.storage.journals import Journal, JournalEntry, mark_undone, read_journal

__all__ = ["AlreadyUndone", "UndoResult", "file_changes", "undo"]


class AlreadyUndone(RunError):
    """The journal is already marked undone."""

    code = "already_undone"


@dataclass(frozen=True)
class UndoResult:
    path: str
    outcome: str  # restored | removed | changed_since | not_undoable | failed
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "outcome": self.outcome, "detail": self.detail}


def _restorable(before: dict[str, Any]) -> bool:
    if not before.get("exists"):
        return True
    if before.get("kind") == "dir":
        return True
    return before.get("kind") == "file" and "content_b64" in before


def file_changes(journal_path: str | os.PathLike[str]) -> dict[str, Any]:
    """``{undoable, undone, entries: [{path, op, undoable}]}`` (the host adds ``run_id``)."""
    journal = read_journal(journal_path)
    entries = [{"path": e.path, "op": e.op, "undoable": _restorable(e.before)} for e in journal.entries]
    return {"undoable": bool(entries) and not journal.undone, "undone": journal.undone, "entries": entries}


def _plan(journal: Journal) -> list[tuple[str, JournalEntry, dict[str, Any] | None]]:
    """Per path: (path, first entry, expected current state), newest-touched path first."""
    first: dict[str, JournalEntry] = {}
    expected: dict[str, dict[str, Any] | None] = {}
    last_index: dict[str, int] = {}
    for e in journal.entries:
        first.setdefault(e.path, e)
        # A mutation without an after-state failed (atomically): the path kept its before-state.
        expected[e.path] = e.after if e.after is not None else e.before
        last_index[e.path] = e.index
    order = sorted(first, key=lambda p: last_index[p], reverse=True)
    return [(p, first[p], expected[p]) for p in order]


def _restore(root: int, path: str, before: dict[str, Any], current: dict[str, Any]) -> UndoResult:
    segs = segments(path)
    with open_parent(root, segs) as (dirfd, name):
        if not before.get("exists"):
            if current.get("kind") == "dir":
                try:
                    os.rmdir(name, dir_fd=dirfd)
                except OSError:
                    return UndoResult(path, "changed_since", "the directory is not empty")
            else:
                os.unlink(name, dir_fd=dirfd)
            os.fsync(dirfd)
            return UndoResult(path, "removed", "created by the run; removed")
        mode = int(before.get("mode") or 0) & 0o777
        if before.get("kind") == "dir":
            if not current.get("exists"):
                os.mkdir(name, mode, dir_fd=dirfd)
                os.chmod(name, mode, dir_fd=dirfd)
            elif current.get("kind") == "dir":
                os.chmod(name, mode, dir_fd=dirfd)
            else:
                return UndoResult(path, "not_undoable", "a file now stands where the directory was")
            return UndoResult(path, "restored", "directory restored")
        if before.get("kind") != "file":
            return UndoResult(path, "not_undoable", "not a regular file before the run")
        if current.get("kind") == "file" and current.get("sha256") == before.get("sha256"):
            st = lstat_at(dirfd, name)
            if st is not None and stat.S_ISREG(st.st_mode):
                fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dirfd)
                try:
                    os.chmod(f"/proc/self/fd/{fd}", mode)
                finally:
                    os.close(fd)
                return UndoResult(path, "restored", "permission bits restored")
        if "content_b64" not in before:
            return UndoResult(path, "not_undoable", "its earlier content was larger than 128 KiB and was not kept")
        if current.get("kind") == "dir":
            try:
                os.rmdir(name, dir_fd=dirfd)
            except OSError:
                return UndoResult(path, "changed_since", "a non-empty directory now stands there")
        atomic_write(dirfd, name, base64.b64decode(before["content_b64"]), mode, path)
        return UndoResult(path, "restored", "content restored")


def undo(project_root: str | os.PathLike[str], journal_path: str | os.PathLike[str],
         protected_roots: tuple[str, ...] = ()) -> list[UndoResult]:
    """Undo one run's file changes; marks the journal undone afterwards. Raises AlreadyUndone."""
    journal = read_journal(journal_path)
    if journal.undone:
        raise AlreadyUndone("these file changes were already undone")
    results: list[UndoResult] = []
    with project_fd(os.path.realpath(os.fspath(project_root))) as root:
        for path, entry, expected in _plan(journal):
            try:
                segs = segments(path)
                if is_protected(segs, protected_roots):
                    results.append(UndoResult(path, "failed", "protected path"))
                    continue
                with open_parent(root, segs) as (dirfd, name):
                    current = capture_state(dirfd, name, with_content=False)
                if not same_state(current, expected):
                    results.append(UndoResult(path, "changed_since", "changed after the run; left as it is"))
                    continue
                if same_state(current, entry.before):
                    results.append(UndoResult(path, "restored", "unchanged by the run"))
                    continue
                results.append(_restore(root, path, entry.before, current))
            except (FsError, OSError, ValueError) as exc:
                results.append(UndoResult(path, "failed", str(exc)))
    mark_undone(journal_path)
    return results
