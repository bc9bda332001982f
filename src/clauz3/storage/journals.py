"""Where the file-change journals of runs live, and how they are read, marked and pruned (05 FS-4..FS-6).

The stdlib effects append the records (:mod:`clauz3.stdlib.filejournal`); the run worker opens a
run's journal, the host prunes and locates them, and :mod:`clauz3.runs.fileundo` reads and marks them.
All of them share this module, which sits below every one of them.

One JSON object per line, appended and fsynced: ``{"seq", "op", "path", "phase": "before"|"after",
"state", "at"}``; undo appends ``{"undone": true, "at"}``.
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass, field
from typing import Any

from clauz3.storage.errors import StorageError
from clauz3.storage.paths import project_sha256

__all__ = [
    "KEEP_RUNS", "MAX_BYTES", "Journal", "JournalEntry", "JournalWriteError", "append_record", "journal_dir",
    "journal_path", "mark_undone", "now", "open_journal", "prune_journals", "read_journal",
]

KEEP_RUNS = 100
MAX_BYTES = 256 * 1024 * 1024


class JournalWriteError(StorageError):
    """A record could not be appended; the effect that wanted it must not happen (FS-4)."""

    code = "journal_write_failed"


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def append_record(fd: int, record: dict[str, Any]) -> None:
    """Append one JSON line through ``fd`` and fsync it before returning."""
    data = (json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        raise JournalWriteError(f"cannot write the file-change journal: {exc.strerror or exc}") from None


def open_journal(path: str | os.PathLike[str]) -> int:
    """Open (creating 0600, parent 0700) a journal file for appending; never follows a final symlink."""
    path = os.fspath(path)
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, mode=0o700, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(path, flags, 0o600)


@dataclass
class JournalEntry:
    """One mutation of one path: its before-state and (if it completed) its after-state."""

    index: int
    seq: int
    op: str
    path: str
    before: dict[str, Any]
    after: dict[str, Any] | None = None


@dataclass
class Journal:
    entries: list[JournalEntry] = field(default_factory=list)
    undone: bool = False


def read_journal(path: str | os.PathLike[str]) -> Journal:
    """Parse a journal file; a torn last line (crash mid-append) is ignored."""
    out = Journal()
    pending: dict[tuple[int, str], JournalEntry] = {}
    fd = os.open(os.fspath(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        raw = fh.read()
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict):
            continue
        if rec.get("undone") is True:
            out.undone = True
            continue
        key = (int(rec.get("seq", 0)), str(rec.get("path", "")))
        raw_state = rec.get("state")
        state = raw_state if isinstance(raw_state, dict) else {}
        if rec.get("phase") == "before":
            entry = JournalEntry(len(out.entries), key[0], str(rec.get("op", "")), key[1], state)
            out.entries.append(entry)
            pending[key] = entry
        elif rec.get("phase") == "after" and key in pending:
            pending.pop(key).after = state
    return out


def mark_undone(path: str | os.PathLike[str]) -> None:
    fd = os.open(os.fspath(path), os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        append_record(fd, {"undone": True, "at": now()})
    finally:
        os.close(fd)


def journal_dir(data_dir: str | os.PathLike[str], project: str | os.PathLike[str]) -> str:
    """``<data>/file-changes/<sha256(project)>``: one project's journals, for a canonical absolute path."""
    return os.path.join(os.fspath(data_dir), "file-changes", project_sha256(project))


def journal_path(data_dir: str | os.PathLike[str], project: str | os.PathLike[str], run_id: str) -> str:
    """``<journal_dir>/<run-id>.jsonl``."""
    if not run_id or "/" in run_id or run_id in (".", "..") or "\x00" in run_id:
        raise ValueError(f"invalid run id {run_id!r}")
    return os.path.join(journal_dir(data_dir, project), f"{run_id}.jsonl")


def prune_journals(directory: str | os.PathLike[str], *, keep_runs: int = KEEP_RUNS,
                   max_bytes: int = MAX_BYTES) -> list[str]:
    """Delete the oldest journals beyond ``keep_runs`` files or ``max_bytes`` in total; returns run ids."""
    directory = os.fspath(directory)
    try:
        names = [n for n in os.listdir(directory) if n.endswith(".jsonl")]
    except FileNotFoundError:
        return []
    items = []
    for n in names:
        try:
            st = os.stat(os.path.join(directory, n), follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISREG(st.st_mode):
            items.append((st.st_mtime_ns, n, st.st_size))
    items.sort(reverse=True)
    removed: list[str] = []
    total = 0
    for i, (_, n, size) in enumerate(items):
        total += size
        if i >= keep_runs or total > max_bytes:
            try:
                os.unlink(os.path.join(directory, n))
                removed.append(n[: -len(".jsonl")])
            except FileNotFoundError:
                pass
    return removed
