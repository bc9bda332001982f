"""``prove(program)``: symbolic execution, then one solver check per obligation (01 §4)."""

from __future__ import annotations

import sys
import time
from typing import Any

from clauz3.language import ir
from clauz3.prover import flows as _flows  # noqa: F401  (registers the encoder of ir.FlowSpec in specs.ENCODERS)
from clauz3.prover import plain
from clauz3.prover.alphabet import Alphabet, with_lazy_facts
from clauz3.prover.counterexample import ModelView, build
from clauz3.prover.entry import CoverageRecord
from clauz3.prover.execute import Executor
from clauz3.prover.obligations import Checker, first_failing, site_why, solve
from clauz3.prover.result import ObligationResult, ProofResult
from clauz3.prover.specs import SpecEnc, encode
from clauz3.prover.state import Ctx, Site
from clauz3.prover.values import Unsupported

VACUOUS = ("the trusted results' postconditions contradict each other on this program, so every claim "
           "would hold vacuously")
UNICODE = "the solver's alphabet ends at U+2FFFF, and this proof depends on character codes"


def _site_result(index: int, site: Site) -> ObligationResult:
    return ObligationResult(
        index=index, kind=site.kind, subject=site.subject.split(" ", 1)[1] if " " in site.subject else site.subject,
        conclusion="unknown", line=site.line, column=site.col, source_kind=site.source_kind,
        expression=site.expression or None, predicate=site.predicate or None, call=site.call or None,
        effect=site.effect or None, module=site.module or None,
    )


def _guarantee_result(index: int, g: ir.Guarantee) -> ObligationResult:
    subject = g.expression if g.kind == "guarantee" else g.bound_call
    return ObligationResult(
        index=index, kind=g.kind, subject=subject, conclusion="unknown", line=g.line, column=g.col,
        source_kind="submitted" if g.kind == "guarantee" else "required_policy", expression=g.expression,
        call=g.bound_call[:300], module=g.helper.rsplit(".", 1)[0] if "." in g.helper else g.helper,
        cls=g.cls, helper=g.helper,
    )


def _unknown(res: ObligationResult, reason: str, detail: str) -> ObligationResult:
    res.conclusion, res.reason, res.result = "unknown", reason, detail
    return res


def prove(program: ir.CheckedProgram, *, obligation_timeout: float = 10.0,
          deadline: float | None = None) -> ProofResult:
    started = time.monotonic()
    ctx = Ctx(program)
    ex = Executor(ctx)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    # Big int literals cross into z3 as decimal text: the environment's int-max-str-digits
    # (PYTHONINTMAXSTRDIGITS) must never make a proof fail or differ (the subset's own limits are
    # in language.digits). Restored once the proof is done.
    old_digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return _prove(program, ctx, ex, started, obligation_timeout, deadline, old_limit)
    except Exception as exc:
        return internal_error(program, exc, started, ex.line)
    finally:
        sys.setrecursionlimit(old_limit)
        sys.set_int_max_str_digits(old_digits)


def internal_error(program: ir.CheckedProgram, exc: BaseException, started: float, line: int) -> ProofResult:
    """A result that is neither proved nor not proved: every obligation unknown, ``internal_error`` set."""
    what = f"{type(exc).__name__} at line {line}" if line else type(exc).__name__
    results = [ObligationResult(index=k, kind=g.kind, subject=g.expression if g.kind == "guarantee" else g.bound_call,
                                conclusion="unknown", line=g.line, column=g.col, source_kind="generated_proof",
                                reason="internal-error", result=f"the prover failed ({what})")
               for k, g in enumerate(program.guarantees)]
    out = _finish(program, results, started)
    out.internal_error = what
    return out


def _prove(program: ir.CheckedProgram, ctx: Ctx, ex: Executor, started: float, obligation_timeout: float,
           deadline: float | None, old_limit: int) -> ProofResult:
    broken: str | None = None
    try:
        ex.run_target()
    except Unsupported as exc:
        broken = str(exc)
    finally:
        sys.setrecursionlimit(old_limit)

    sites = list(ctx.site_order)
    results: list[ObligationResult] = [_site_result(k, s) for k, s in enumerate(sites)]
    gresults = [_guarantee_result(len(sites) + k, g) for k, g in enumerate(program.guarantees)]
    all_results = results + gresults
    if broken is not None:
        stuck = ObligationResult(
            index=len(sites), kind="exception", subject=f"not analysable at line {ex.line}",
            conclusion="unknown", line=ex.line, column=1, source_kind="generated_proof")
        all_results = [*results, stuck, *gresults]
        for k, r in enumerate(all_results):
            r.index = k
            _unknown(r, "unsupported", f"cannot encode this program: {broken}")
        return _finish(program, all_results, started)

    checker = Checker(ctx, obligation_timeout, deadline)
    alphabet = Alphabet()
    vac = checker.run(list(ctx.assumptions)) if ctx.assumptions else None
    if vac is not None and vac.status != "sat":
        reason, detail = ("vacuous", VACUOUS) if vac.status == "unsat" else (vac.reason or "solver-unknown",
                                                                             vac.detail)
        if vac.status == "unknown" and vac.reason not in ("deadline", "timeout", "resource-limit"):
            reason, detail = "solver-unknown", vac.detail
        for r in all_results:
            _unknown(r, reason, detail)
        return _finish(program, all_results, started)

    for res, site in zip(results, sites, strict=True):
        _check_site(checker, ctx, res, site, alphabet)
    for res, g in zip(gresults, program.guarantees, strict=True):
        _check_guarantee(checker, ctx, ex, res, g, alphabet)
    return _finish(program, all_results, started)


def _alphabet_bound(ctx: Ctx, parts: list[Any], alphabet: Alphabet) -> bool:
    """The proof holds only for z3's alphabet: character codes (ord, chr), or an order between unknown
    texts with a constant above U+FFFF (prover/alphabet.py)."""
    if ctx.unicode_sensitive:
        return True
    if not ctx.order_sensitive:
        return False
    return not alphabet.order_safe(parts)


def _check_site(checker: Checker, ctx: Ctx, res: ObligationResult, site: Site, alphabet: Alphabet) -> None:
    try:
        parts = with_lazy_facts(checker.site_formula(site), ctx.lazy_facts)
        out = checker.run(parts)
    except Unsupported as exc:
        _unknown(res, "unsupported", str(exc))
        return
    res.elapsed_ms = out.elapsed_ms
    if out.status == "unsat":
        if _alphabet_bound(ctx, parts, alphabet):
            _unknown(res, "unsupported", UNICODE)
            return
        res.conclusion = "proved"
        return
    if out.status == "unknown":
        _unknown(res, out.reason or "solver-unknown", out.detail)
        return
    res.conclusion = "violated"
    try:
        mv = ModelView(out.model, ctx)
        inst = first_failing(mv, site)
        why = site_why(mv, site, inst)
        res.result = why
        res.counterexample = build(mv, why, [])
    except Exception as exc:
        res.result = f"a counterexample exists (it could not be displayed: {type(exc).__name__})"
        res.counterexample = {"why": res.result, "inputs": {}, "returns": [], "path": [], "trace": [],
                              "breaking": [], "confirmed": False}


def _check_guarantee(checker: Checker, ctx: Ctx, ex: Executor, res: ObligationResult, g: ir.Guarantee,
                     alphabet: Alphabet) -> None:
    label = g.description or g.bound_call
    enc: SpecEnc = encode(ex, g.spec, label)
    if enc.unsupported:
        _unknown(res, "unsupported", enc.unsupported)
        return
    parts = with_lazy_facts(checker.guarantee_formula(enc.fails, enc.mappings), ctx.lazy_facts)
    out = checker.run(parts)
    res.elapsed_ms = out.elapsed_ms
    if out.status == "unsat":
        if _alphabet_bound(ctx, parts, alphabet):
            _unknown(res, "unsupported", UNICODE)
            return
        res.conclusion = "proved"
        return
    if out.status == "unknown":
        _unknown(res, out.reason or "solver-unknown", out.detail)
        return
    if enc.approximate:
        under = checker.run(checker.guarantee_formula(enc.fails_under, enc.mappings)) \
            if enc.fails_under is not None else None
        if under is None or under.status != "sat":
            _unknown(res, "unsupported", enc.approx_reason or "the count over a symbolic loop is over-approximated "
                     "here and no run breaking it was found")
            return
        out = under
    res.conclusion = "violated"
    try:
        mv = ModelView(out.model, ctx)
        expl = enc.explain(mv) if enc.explain else None
        why = expl.why if expl else f"the run breaks \"{label}\""
        res.result = why
        res.counterexample = build(mv, why, expl.breaking if expl else [])
    except Exception:
        res.result = plain.DISPLAY
        res.counterexample = {"why": res.result, "inputs": {}, "returns": [], "path": [], "trace": [],
                              "breaking": [], "confirmed": False}


def coverage(program: ir.CheckedProgram, results: list[ObligationResult]) -> list[CoverageRecord]:
    """COV-3 status per used domain."""
    out = []
    guarantees = [r for r in results if r.kind == "guarantee"]
    required = [r for r in results if r.kind == "required"]

    def in_domain(helper: str | None, domain: str) -> bool:
        h = helper or ""
        return h.startswith((f"tools.{domain}.", f"{domain}.")) or f".{domain}.trusted." in h

    def names(helper: str | None, wanted: str) -> bool:
        h = helper or ""
        return h == wanted or h.endswith("." + wanted)

    for dom in program.coverage:
        if dom.domain not in program.used_domains:
            continue
        missing_required = [h for h in dom.required
                            if not any(names(r.helper, h) and r.conclusion == "proved" for r in required)]
        missing_recommended = [h for h in dom.recommended if not any(names(r.helper, h) for r in guarantees)]
        lib_of = {g.helper: g.library for g in program.guarantees}
        silent = not any(in_domain(r.helper, dom.domain) or lib_of.get(r.helper or "") == dom.domain
                         for r in guarantees)
        if missing_required:
            status = "required_gap"
        elif silent:
            status = "silent_gap"
        elif missing_recommended:
            status = "recommended_gap"
        else:
            status = "covered"
        out.append(CoverageRecord(dom.domain, status, tuple(missing_required), tuple(missing_recommended)))
    return out


def _finish(program: ir.CheckedProgram, results: list[ObligationResult], started: float) -> ProofResult:
    return ProofResult(program.target, results, coverage(program, results),
                       round((time.monotonic() - started) * 1000))


__all__ = ["prove", "solve"]
