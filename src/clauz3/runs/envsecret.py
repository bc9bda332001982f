"""Secrets out of the environment (issue 19 §3).

``/proc/<pid>/environ`` shows the environment block a process was started with to every process of
the same user, whatever ``os.environ`` says later: deleting a variable only drops the pointer. A
credential that arrived in a variable is therefore taken out of ``os.environ`` *and* overwritten in
that block, before anything else runs; credentials clauz3 hands on travel over descriptors
(stdin, pipes), never in a child's environment or argv.
"""

from __future__ import annotations

import os


def _env_block() -> tuple[int, int] | None:
    """``(env_start, env_end)`` of this process (fields 50 and 51 of /proc/self/stat)."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            stat = fh.read()
        fields = stat[stat.rindex(b")") + 2:].split()
        return int(fields[47]), int(fields[48])
    except (OSError, ValueError, IndexError):
        return None


def _wipe(name: str) -> None:
    where = _env_block()
    if where is None:
        return
    start, end = where
    needle = name.encode("utf-8", "surrogateescape") + b"="
    try:
        with open("/proc/self/mem", "r+b", buffering=0) as mem:
            mem.seek(start)
            block = mem.read(end - start)
            at = 0
            while (at := block.find(needle, at)) != -1:
                if at == 0 or block[at - 1] == 0:
                    value_end = block.find(b"\0", at)
                    value_end = len(block) if value_end == -1 else value_end
                    mem.seek(start + at + len(needle))
                    mem.write(b"\0" * (value_end - at - len(needle)))
                at += len(needle)
    except OSError:
        pass


def take(name: str) -> str | None:
    """The variable's value (None if unset or empty), gone from this process's environment and its /proc file."""
    value = os.environ.pop(name, None)
    _wipe(name)
    return value.strip() or None if value is not None else None
