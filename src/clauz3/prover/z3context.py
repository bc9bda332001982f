"""Letting go of z3's context once a process has proved what it waits on (06 ``tree_rss``).

The prover makes every term in z3's main context, created on first use; a z3 context holds its own tables
(about 20 MiB before any proof, more after one) until it is deleted. A run worker that proved its program
then waits (on the authority, on the person) while holding it. :func:`release` drops the process's own references to that context, so z3 deletes it once no term,
solver or model refers to it any more, and the next proof makes a fresh one (tens of milliseconds: the authority's prover child, which proves card
after card, keeps its context warm instead).

Sound by construction: z3's Python objects each hold their context, so a term still alive keeps its context
alive (nothing is freed under it), and a proof after :func:`release` makes all of its terms in the new
context, including the few constants the prover caches (cleared here). Call it only where no proof is
running in the process (the worker: once it has submitted, when it never proves again).
"""

from __future__ import annotations

import z3

from clauz3.prover import logic, values


def release() -> None:
    for made in (logic.z3_true, logic.z3_false, values.f64, values.rne):  # the prover's cached terms
        made.cache_clear()
    z3.z3._main_ctx = None  # main_ctx() makes a new one on next use


def holds_context() -> bool:
    """Whether z3's main context exists now (tests; 01 WARM-1's check reads the same)."""
    return z3.z3._main_ctx is not None
