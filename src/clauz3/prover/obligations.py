"""Checking obligations one by one with fresh solvers (01 SEM-2…6, SOL-1…6).

Each obligation is checked as ``sat(assumptions ∧ earlier obligations ∧ ¬obligation)``: a site
is judged on executions that reached it, so obligation instances created earlier on the
symbolic execution (which stop the run when they fail) are assumed; guarantees assume every
non-guarantee obligation (SEM-3). Verdicts never depend on other obligations' outcomes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from clauz3.prover import plain
from clauz3.prover.counterexample import ModelView
from clauz3.prover.logic import mk_and, mk_or, subst
from clauz3.prover.state import Ctx, Instance, Site
from clauz3.prover.values import Unsupported

RLIMIT = 200_000_000  # deterministic resource limit per check (SOL-3)


@dataclass
class SolveOutcome:
    status: str  # sat | unsat | unknown
    model: Any = None
    reason: str | None = None
    detail: str = ""
    elapsed_ms: int = 0


def _fmt(seconds: float) -> str:
    return f"{seconds:g}"


def solve(parts: list[Any], timeout: float, clamped: bool) -> SolveOutcome:
    started = time.monotonic()
    try:
        s = z3.Solver()
        s.set("timeout", max(1, int(timeout * 1000)))
        s.set("rlimit", RLIMIT)
        s.set("random_seed", 0)
        s.add(*parts)
        r = s.check()
        ms = round((time.monotonic() - started) * 1000)
        if r == z3.sat:
            return SolveOutcome("sat", s.model(), elapsed_ms=ms)
        if r == z3.unsat:
            return SolveOutcome("unsat", elapsed_ms=ms)
        why = s.reason_unknown()
    except z3.Z3Exception:
        return SolveOutcome("unknown", reason="solver-error", detail=plain.SOLVER,
                            elapsed_ms=round((time.monotonic() - started) * 1000))
    ms = round((time.monotonic() - started) * 1000)
    low = why.lower()
    if "resource" in low or "rlimit" in low:
        return SolveOutcome("unknown", reason="resource-limit",
                            detail="the solver hit its deterministic resource limit", elapsed_ms=ms)
    if "timeout" in low or "canceled" in low or "cancelled" in low:
        if clamped:
            return SolveOutcome("unknown", reason="deadline", detail="the proof deadline passed before an answer",
                                elapsed_ms=ms)
        return SolveOutcome("unknown", reason="timeout", detail=f"no answer within {_fmt(timeout)} s",
                            elapsed_ms=ms)
    # z3's reason (e.g. "incomplete (theory strings)") names solver internals, not the person's program.
    return SolveOutcome("unknown", reason="solver-unknown", detail=plain.UNDECIDED,
                        elapsed_ms=ms)


class Checker:
    """Runs the solver for each obligation within the per-obligation timeout and the deadline."""

    def __init__(self, ctx: Ctx, obligation_timeout: float, deadline: float | None) -> None:
        self.ctx = ctx
        self.timeout = obligation_timeout
        self.deadline = deadline
        self.instances = ctx.all_instances()

    def budget(self) -> tuple[float, bool] | None:
        if self.deadline is None:
            return self.timeout, False
        left = self.deadline - time.monotonic()
        if left <= 0:
            return None
        return (left, True) if left < self.timeout else (self.timeout, False)

    def run(self, parts: list[Any]) -> SolveOutcome:
        b = self.budget()
        if b is None:
            return SolveOutcome("unknown", reason="deadline", detail="the proof deadline passed before an answer")
        return solve(parts, *b)

    def site_formula(self, site: Site) -> list[Any]:
        """``¬site`` with, for each instance, the holds of all instances created before it."""
        own = sorted(site.instances, key=lambda i: i.seq)
        others = [i for i in self.instances if i not in own]
        formula: Any = None
        for pos in reversed(range(len(own))):
            inst = own[pos]
            here = inst.fails
            if formula is None:
                formula = here
            else:
                nxt = own[pos + 1]
                between = [o.holds for o in others if inst.seq < o.seq < nxt.seq]
                formula = mk_or(here, mk_and(inst.holds, *between, formula))
        first = own[0].seq
        before = [o.holds for o in others if o.seq < first]
        return [*self.ctx.assumptions, *before, formula]

    def guarantee_formula(self, fails: Any, mappings: list[list[tuple[Any, Any]]]) -> list[Any]:
        base = [*self.ctx.assumptions, *[i.holds for i in self.instances]]
        extra = []
        for m in mappings:
            for f in base:
                g = subst(f, m)
                if not g.eq(f):
                    extra.append(g)
        return [*base, *extra, fails]


def first_failing(mv: ModelView, site: Site) -> Instance | None:
    for inst in sorted(site.instances, key=lambda i: i.seq):
        if mv.true(inst.fails):
            return inst
    return None


def site_why(mv: ModelView, site: Site, inst: Instance | None) -> str:
    details = inst.details if inst else ()
    if site.kind == "precondition":
        effect = site.subject.split(" ", 2)[1] if site.subject.count(" ") >= 2 else site.effect
        args = ", ".join(f"{name}={mv.show(v)}" for name, v in details)
        gets = f" gets {args}" if args else ""
        message = f" ({site.message})" if site.message else ""
        return f"{effect} at line {site.line}{gets} which breaks {site.predicate}{message}"
    if site.kind == "exception":
        shown = ", ".join(f"{name} = {mv.show(v)}" for name, v in details)
        with_part = f" with {shown}" if shown else ""
        return f"{site.exception} at line {site.line}: {site.expression}{with_part}"
    if site.kind == "assertion":
        return f"assertion at line {site.line} fails: {site.predicate}"
    if site.kind == "postcondition":
        return f"the result breaks the postcondition {site.predicate}" + (f" ({site.message})" if site.message else "")
    return site.subject


__all__ = ["Checker", "SolveOutcome", "Unsupported", "first_failing", "site_why", "solve"]
