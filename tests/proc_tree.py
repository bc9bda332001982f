"""The process tree as the tests see it, read from Linux ``/proc``.

One place for what several tests need to check that a kill leaves nothing behind: a process's children,
all its descendants, whether a pid is still alive, and its argv. Every reader treats a process that
vanishes mid-read as absent. Test directories are not packages: modules outside ``tests/bridge``,
``tests/runs`` and ``tests/approvals`` put ``tests/`` on ``sys.path`` before ``import proc_tree``.
"""

from __future__ import annotations

import os
from pathlib import Path


def _stat_fields(pid: int | str) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command name: [state, ppid, pgrp, session, ...].

    The command name is in parentheses and may itself hold spaces or ``)``, so split after the last one.
    """
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _parents() -> dict[int, list[int]]:
    """One snapshot of the whole table: parent pid → its children's pids (zombies included)."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            ppid = int(_stat_fields(entry)[1])
        except (OSError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid`` right now, zombies included."""
    return _parents().get(pid, [])


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (not ``pid`` itself), from one snapshot of ``/proc``, zombies included.

    The order is depth-first: ``pid``'s children first, then the subtree of the last of them, and so on.
    """
    kids = _parents()
    found: list[int] = []
    todo = [pid]
    while todo:
        below = kids.get(todo.pop(), [])
        found += below
        todo += below
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (a killed child its parent has not reaped yet)."""
    try:
        return _stat_fields(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def cmdline(pid: int) -> list[str]:
    """The argv of ``pid`` (undecodable bytes replaced); ``[]`` once it is gone or a zombie (no argv left)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    argv = raw.decode(errors="replace").split("\0")
    return argv[:-1] if argv[-1] == "" else argv


def wait_gone(pids: list[int], what: str, timeout: float = 60.0) -> None:
    """Wait for every pid in ``pids`` to end (the event, not a fixed delay); fail naming ``what`` and the argv of
    each one still alive after ``timeout`` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while (left := [pid for pid in pids if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"{what}: still alive after {timeout:g} s: {[(pid, cmdline(pid)) for pid in left]}"
