"""The file-change journal of a run (05 FS-4): before- and after-states of every mutated path.

One JSON object per line, appended and fsynced through the run's journal descriptor:
``{"seq", "op", "path", "phase": "before"|"after", "state", "at"}`` where ``state`` is
``{exists, kind, mode, size, sha256, content_b64?}`` (``kind`` ∈ ``file``, ``dir``, ``other`` or
null when absent; content only in before-states of regular files ≤ 131,072 bytes). Undo appends
``{"undone": true, "at"}``. If a before-state cannot be written the mutation does not happen.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import os
import stat
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from clauz3.stdlib.safefs import FsError, lstat_at

__all__ = [
    "CONTENT_CAP", "Journal", "JournalEntry", "capture_state", "journal_path", "journaled", "prune_journals",
    "read_journal", "same_state",
]

CONTENT_CAP = 131_072
KEEP_RUNS = 100
MAX_BYTES = 256 * 1024 * 1024
_HASH_CHUNK = 1 << 20
_seq = itertools.count(1)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def capture_state(dirfd: int, name: str, *, with_content: bool) -> dict[str, Any]:
    """State of ``name`` in ``dirfd`` without following links."""
    st = lstat_at(dirfd, name)
    if st is None:
        return {"exists": False, "kind": None, "mode": None, "size": None, "sha256": None}
    mode = stat.S_IMODE(st.st_mode)
    if stat.S_ISDIR(st.st_mode):
        return {"exists": True, "kind": "dir", "mode": mode, "size": 0, "sha256": None}
    if not stat.S_ISREG(st.st_mode):
        return {"exists": True, "kind": "other", "mode": mode, "size": st.st_size, "sha256": None}
    digest = hashlib.sha256()
    keep = bytearray()
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dirfd)
    try:
        size = 0
        while chunk := os.read(fd, _HASH_CHUNK):
            digest.update(chunk)
            size += len(chunk)
            if with_content and size <= CONTENT_CAP:
                keep += chunk
    finally:
        os.close(fd)
    out: dict[str, Any] = {"exists": True, "kind": "file", "mode": mode, "size": size, "sha256": digest.hexdigest()}
    if with_content and size <= CONTENT_CAP:
        out["content_b64"] = base64.b64encode(bytes(keep)).decode("ascii")
    return out


def same_state(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Equal as far as undo cares: existence, kind, permission bits, size and hash."""
    if a is None or b is None:
        return False
    keys = ("exists", "kind", "mode", "size", "sha256")
    return all(a.get(k) == b.get(k) for k in keys)


def _append(fd: int, record: dict[str, Any]) -> None:
    data = (json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        raise FsError(f"cannot write the file-change journal: {exc.strerror or exc}") from None


@contextmanager
def journaled(journal_fd: int | None, op: str, targets: Sequence[tuple[int, str, str]]) -> Iterator[None]:
    """Journal before-states of ``(dirfd, name, project path)`` targets, run the body, then after-states.

    Without a journal the body just runs. A failing body writes no after-state (the change did not
    happen, FS-3); undo treats such an entry as unchanged.
    """
    if journal_fd is None:
        yield
        return
    seq = next(_seq)
    for dirfd, name, shown in targets:
        try:
            state = capture_state(dirfd, name, with_content=True)
        except OSError as exc:
            raise FsError(f"cannot record the state of {shown}: {exc.strerror or exc}") from None
        _append(journal_fd, {"seq": seq, "op": op, "path": shown, "phase": "before", "state": state, "at": _now()})
    yield
    for dirfd, name, shown in targets:
        try:
            state = capture_state(dirfd, name, with_content=False)
        except OSError:
            state = {"exists": None, "kind": "unknown", "mode": None, "size": None, "sha256": None}
        _append(journal_fd, {"seq": seq, "op": op, "path": shown, "phase": "after", "state": state, "at": _now()})


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
        state = rec.get("state") if isinstance(rec.get("state"), dict) else {}
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
        _append(fd, {"undone": True, "at": _now()})
    finally:
        os.close(fd)


def journal_dir(data_dir: str | os.PathLike[str], project: str | os.PathLike[str]) -> str:
    """``<data>/file-changes/<sha256(project)>``: one project's journals, for a canonical absolute path."""
    digest = hashlib.sha256(os.path.realpath(os.fspath(project)).encode("utf-8")).hexdigest()
    return os.path.join(os.fspath(data_dir), "file-changes", digest)


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
