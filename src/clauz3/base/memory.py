"""Give freed heap memory back to the system (06 ``tree_rss``): imports nothing of clauz3.

Python returns small objects to its own arenas and z3 frees its solver state with ``free``; glibc keeps
both in the process's heap until told otherwise, so a process that proved once holds its peak while it
waits. ``malloc_trim(0)`` hands the free pages back. Called where a process is about to wait (the
authority's prover child after an answer is sent, the warm template before its first fork), never on a path
someone is waiting for.
"""

from __future__ import annotations

import ctypes
import gc


def give_back() -> None:
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to hand back this way
        pass
