"""``flows.never`` / ``flows.only`` (issue 20) over the symbolic trace.

The labels come from :class:`clauz3.language.flowlabels.FlowAnalysis`, a sound over-approximation of
every label a run can carry into each effect parameter. A call whose parameter may carry a forbidden
label fails the spec where the call is reachable (its record's guard); a label that is there on every run
making the call (``must``) gives a real violation, any other only "cannot prove" — so ``proved`` means no
reachable call can carry one. The reason names the path of the value, from the read call to the argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clauz3.language import ir
from clauz3.language.flowlabels import FlowAnalysis, Lab, describe_path, forbidden, short
from clauz3.prover.logic import mk_or, z3_false
from clauz3.prover.specs import ENCODERS, Explanation, SpecEnc, effect_matches

if TYPE_CHECKING:
    from clauz3.prover.counterexample import ModelView
    from clauz3.prover.state import CallRecord, SymbolicExecutor

def analysis(program: ir.CheckedProgram) -> FlowAnalysis:
    """The program's label analysis (recomputed for each spec: it is linear in the program, loops aside)."""
    return FlowAnalysis(program).run()


def _reason(spec: ir.FlowSpec, site_call: ir.EffectCall, param: str, bad: list[tuple[str, Lab]]) -> str:
    label, lab = bad[0]
    kind = "read by" if spec.mode == "never" else "from"
    return (f"{short(site_call.effect)}'s {param} at line {site_call.line} may carry data {kind} {short(label)}: "
            f"{describe_path(lab)}")


def encode_flow(ex: SymbolicExecutor, spec: ir.FlowSpec, label: str) -> SpecEnc:
    fa = analysis(ex.program)
    hits: list[tuple[CallRecord, str, list[tuple[str, Lab]], bool]] = []
    for r in ex.ctx.records:
        at = fa.sites.get(r.site)
        for eff, param in spec.sinks:
            if not effect_matches(r.effect, (eff,)):
                continue
            if at is None:  # the analysis never reached a call the prover did: claim nothing about it
                hits.append((r, param, [("an unknown source", Lab(("the label analysis did not reach this call",),
                                                                  False))], False))
                continue
            labels = at.get(param, {})
            bad = [(k, labels[k]) for k in forbidden(spec, labels)]
            if bad:
                hits.append((r, param, bad, any(lab.must for _, lab in bad)))
    if not hits:
        return SpecEnc(z3_false())
    fails = mk_or(*[r.guard for r, _, _, _ in hits])
    sure = [r.guard for r, _, _, must in hits if must]
    first = hits[0]
    call = fa.calls.get(first[0].site)
    reason = _reason(spec, call, first[1], first[2]) if call is not None else \
        f"{first[0].effect.short} at line {first[0].line}: {describe_path(first[2][0][1])}"

    def explain(mv: ModelView) -> Explanation:
        found = sorted((pos, k, assign) for k, (r, _, _, must) in enumerate(hits) if must
                       for pos, assign in mv.occurrences(r))
        if found:
            _, k, assign = found[0]
            r, param, bad, _ = hits[k]
            ref = mv.ref(r, assign=assign)
            site_call = fa.calls.get(r.site)
            path = _reason(spec, site_call, param, [b for b in bad if b[1].must] or bad) if site_call else ""
            return Explanation(f"call #{ref.index} {ref.call} at line {ref.line} breaks \"{label}\": {path}",
                               [ref.json()])
        return Explanation(f"the run breaks \"{label}\": {reason}")

    approx_reason: Any = (f"{reason} — clauz3 cannot prove \"{label}\" (the label analysis counts every path, "
                          f"branch condition and loop; the run-time monitor checks each call)")
    return SpecEnc(fails, approximate=True, fails_under=mk_or(*sure) if sure else None, explain=explain,
                   approx_reason=approx_reason)


ENCODERS[ir.FlowSpec] = encode_flow
