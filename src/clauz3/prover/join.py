"""Where paths meet: one environment from the environments of the paths that reach a join (after an
``if``, a loop's breaks and exits), with the paths on which a name is unbound kept beside it."""

from __future__ import annotations

from typing import Any

import z3

from clauz3.prover.logic import mk_and, mk_or
from clauz3.prover.values import merge_many

UNBOUND = "?"  # env key "?x": the paths on which the name x is not bound (no identifier starts with "?")


def merge_env(states: list[tuple[Any, dict[str, Any]]]) -> dict[str, Any]:
    """The environment where paths meet. A name some live path lacks keeps the value the others give it,
    and ``"?name"`` holds the paths where it is unbound, so a read there is an obligation (issue 18;
    the checker refuses such reads, this keeps the proof honest if it ever does not)."""
    live = [(g, e) for g, e in states if not z3.is_false(g)]
    if not live:
        return dict(states[-1][1]) if states else {}
    if len(live) == 1:
        return dict(live[0][1])
    names: dict[str, None] = {}
    for _, env in live:
        for k in env:
            if not k.startswith(UNBOUND):
                names[k] = None
    out: dict[str, Any] = {}
    for k in names:
        choices = [(g, env[k]) for g, env in live if k in env]
        if all(v is choices[0][1] for _, v in choices):
            out[k] = choices[0][1]
        else:
            out[k] = merge_many(choices)
        unbound = [g if k not in env else mk_and(g, env[UNBOUND + k]) for g, env in live
                   if k not in env or UNBOUND + k in env]
        if unbound:
            out[UNBOUND + k] = mk_or(*unbound)
    return out
