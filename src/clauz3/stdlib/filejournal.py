"""The file-change journal as the stdlib effects write it (05 FS-4): before- and after-states of every mutated path.

Records go through the run's journal descriptor (:func:`clauz3.storage.journals.append_record`):
``state`` is ``{exists, kind, mode, size, sha256, content_b64?}`` (``kind`` ∈ ``file``, ``dir``,
``other`` or null when absent; content only in before-states of regular files ≤ 131,072 bytes).
If a before-state cannot be written the mutation does not happen. Where journals live, how they are
read, marked undone and pruned is :mod:`clauz3.storage.journals` (the host and the worker use it).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from clauz3.stdlib.safefs import FsError, lstat_at
from clauz3.storage.journals import JournalWriteError, append_record, now

__all__ = ["CONTENT_CAP", "capture_state", "journaled", "same_state"]

CONTENT_CAP = 131_072
_HASH_CHUNK = 1 << 20
_seq = itertools.count(1)


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
    try:
        append_record(fd, record)
    except JournalWriteError as exc:  # the effect's own error shape, shown to the agent
        raise FsError(str(exc)) from None


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
        _append(journal_fd, {"seq": seq, "op": op, "path": shown, "phase": "before", "state": state, "at": now()})
    yield
    for dirfd, name, shown in targets:
        try:
            state = capture_state(dirfd, name, with_content=False)
        except OSError:
            state = {"exists": None, "kind": "unknown", "mode": None, "size": None, "sha256": None}
        _append(journal_fd, {"seq": seq, "op": op, "path": shown, "phase": "after", "state": state, "at": now()})
