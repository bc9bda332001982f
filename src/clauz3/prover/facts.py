"""Effect facts of a checked program, for the approval card's summary (issue 12).

One symbolic execution of the target (the same executor ``prove`` uses) lists every effect call
the program can make: its effect, its line, each argument's value when the execution shows it is a
single literal on every path that reaches the call, and whether the call happens exactly once on
every path (unconditional, outside symbolic loops). Nothing here decides a verdict; a fact the
executor cannot establish is reported as unknown, never guessed.

Issue 20 (in-run data flow): for each call's protected parameters, the read effects (``reads_data``) whose
results the value may derive from — by the label analysis ``flows.never`` is proved with
(:class:`~clauz3.language.flowlabels.FlowAnalysis`: string building, containers, helpers, loops, branch
conditions). Where that analysis says nothing about a call, every read effect of the program is listed.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

import z3

from clauz3.language import ir
from clauz3.language.context import domain_of
from clauz3.language.flowlabels import FlowAnalysis
from clauz3.prover.errors import ProverError
from clauz3.prover.execute import Executor
from clauz3.prover.state import Ctx
from clauz3.prover.values import NONE_V, ListV, Tagged

MAX_CALLS = 200  # facts about more calls than this only say "many" (the card lists counts, not calls)
MAX_TEXT = 20_000  # one literal text; a longer one is reported unknown (the card then shows the bounds)
MAX_TOTAL = 200_000  # all literal texts together, so the facts fit in an approval request
MAX_FLOWS = 100_000  # all ``derives`` lists together (issue 20), likewise; past it the facts are incomplete


class _Unknown(ProverError):
    pass


def _text(v: z3.SeqRef) -> str:
    """A string literal's exact code points (``as_string`` escapes non-ASCII as ``\\u{…}``)."""
    n = z3.Z3_get_string_length(v.ctx_ref(), v.as_ast())
    if n > MAX_TEXT:
        raise _Unknown
    buf = (ctypes.c_uint * n)()
    z3.Z3_get_string_contents(v.ctx_ref(), v.as_ast(), n, buf)
    return "".join(chr(c) for c in buf)


def _literal(value: Any) -> Any:
    """The Python value of a symbolic value that is one literal, else raise :class:`_Unknown`."""
    if isinstance(value, Tagged):
        raise _Unknown
    if value is NONE_V:
        return None
    if isinstance(value, ListV):
        if not isinstance(value.n, int):
            raise _Unknown
        return [_literal(v) for v in value.items[: value.n]]
    if isinstance(value, z3.ExprRef):
        v = z3.simplify(value)
        if z3.is_string_value(v):
            return _text(v)
        if z3.is_int_value(v):
            return v.as_long()
        if z3.is_true(v):
            return True
        if z3.is_false(v):
            return False
    raise _Unknown


def _domain(effect: ir.Effect) -> str:
    module = effect.name.rsplit(".", 1)[0]
    return domain_of(module) or module


_LINK_NAMES = frozenset({"url", "link", "uri", "href"})


def _fetched_links(eff: Any) -> dict[str, str]:
    """Issue 20 (red team w2): the link a read effect fetches is a protected place of kind ``url`` unless the layer
    says otherwise — visiting a page tells its server the visit (and whatever the link carries), so a link that
    appears only in what the agent read is the person's call, like one in a message body. A parameter counts
    when the read's template names it and its name says it is a link (``url``, ``*_url``, ``link``, ``uri``)."""
    if not eff.reads_data:
        return {}
    return {p.name: "url" for p in eff.params
            if p.name not in dict(eff.protected) and "{" + p.name + "}" in eff.reads_data
            and (p.name in _LINK_NAMES or p.name.endswith("_url"))}


def _read_flows(program: ir.CheckedProgram) -> tuple[frozenset[str], FlowAnalysis | None]:
    """The program's read effects and its label analysis (None: the analysis failed, so every protected
    argument may derive from every read). No read effect: no analysis, the facts stay as they were."""
    reads = frozenset(n for n, e in program.effects.items() if e.reads_data)
    if not reads:
        return reads, None
    try:
        return reads, FlowAnalysis(program).run()
    except Exception:  # over-approximate: the card then says every protected value may come from every read
        return reads, None


def _derives(reads: frozenset[str], fa: FlowAnalysis | None, site: int, protected: dict[str, str]
             ) -> dict[str, list[str]]:
    """``{param: [read effects]}`` for each protected parameter of the call at ``site`` whose value (or whether
    the call happens at all: implicit flow) may derive from what a read effect returned. Omitted parameters
    count too: the call happening under a condition on read data is a flow."""
    if not reads:
        return {}
    at = fa.sites.get(site) if fa is not None else None
    out: dict[str, list[str]] = {}
    for param in sorted(protected):
        # A call the analysis did not reach (or a failed analysis) may carry anything read.
        found = sorted(reads) if at is None else sorted(k for k in at.get(param, {}) if k in reads)
        if found:
            out[param] = found
    return out


def effect_facts(program: ir.CheckedProgram) -> dict[str, Any] | None:
    """``{"complete": bool, "effects": [...]}``, or None when the program cannot be executed symbolically.

    ``effects`` has one entry per effect the program calls, in first-call order:
    ``{"effect", "name", "domain", "mock", "exact", "calls": [{"line", "always", "args"}]}`` (plus
    ``protected`` and ``reads`` when the layer declares them) where
    ``args`` maps each passed parameter to ``{"value": v}`` (a literal on every path) or ``None``
    (unknown), ``derives`` (only when some protected parameter may derive from a read) maps such a parameter
    to the qualified names of the read effects it may derive from, and ``exact`` is true when every call of
    it happens exactly once on every path.
    ``complete`` is false when calls were left out (more than MAX_CALLS) or their ``derives`` (past MAX_FLOWS):
    the card then counts every read as reaching every protected place.
    """
    ctx = Ctx(program)
    ex = Executor(ctx)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    try:
        ex.run_target()
    except Exception:  # the proof reports why; the card then shows no literal facts
        return None
    finally:
        sys.setrecursionlimit(old_limit)
    reads, fa = _read_flows(program)
    by_effect: dict[str, dict[str, Any]] = {}
    complete = True
    budget, flow_budget = MAX_TOTAL, MAX_FLOWS
    for n, record in enumerate(ctx.records):
        eff = record.effect
        entry = by_effect.get(eff.name)
        if entry is None:
            entry = by_effect[eff.name] = {
                "effect": eff.short, "name": eff.name, "domain": _domain(eff), "mock": bool(eff.mock),
                "exact": True, "calls": []}
            # Issue 20: the layer's protected parameters and the name of what the effect reads travel
            # with the facts, so the authority classifies literals from facts it proved itself.
            protected = dict(eff.protected) | _fetched_links(eff)
            if protected:
                entry["protected"] = protected
            if eff.reads_data:
                entry["reads"] = eff.reads_data
        if n >= MAX_CALLS:
            complete = False
            entry["exact"] = False
            continue
        always = not record.loops and z3.is_true(z3.simplify(record.guard))
        args: dict[str, Any] = {}
        for param in record.passed:
            try:
                value = _literal(record.args.get(param))
                size = len(repr(value))
                if budget < size:
                    raise _Unknown
                budget -= size
                args[param] = {"value": value}
            except _Unknown:
                args[param] = None
        call: dict[str, Any] = {"line": record.line, "always": always, "args": args}
        derives = _derives(reads, fa, record.site, dict(eff.protected) | _fetched_links(eff))
        if derives:
            size = sum(len(param) + sum(len(name) + 4 for name in names) for param, names in derives.items())
            if flow_budget < size:  # not listed: the facts say they are incomplete, so every read counts everywhere
                complete = False
            else:
                flow_budget -= size
                call["derives"] = derives
        entry["calls"].append(call)
        if not always:
            entry["exact"] = False
    return {"complete": complete, "effects": list(by_effect.values())}


def _relation_effects(rel: ir.Relation, program: ir.CheckedProgram) -> set[str]:
    from clauz3.prover.specs import effect_matches

    out: set[str] = set()
    for eff in program.effects.values():
        if rel.event is None:
            if effect_matches(eff, rel.targets):
                out.add(eff.name)
            continue
        for pe in eff.performs:
            cls = program.events.get(pe.event)
            if pe.event == rel.event or (cls is not None and rel.event in cls.bases):
                out.add(eff.name)
    return out


def spec_effects(spec: ir.Spec, program: ir.CheckedProgram) -> frozenset[str]:
    """The qualified names of the program's effects ``spec`` constrains (issue 19: what a rule is about).

    A relation speaks about the effects it selects (by name, or by an event they perform); an end-state
    guarantee about the effects that update its fluent; ``no_guarantees()`` about nothing. A spec kind
    not listed here speaks about nothing, so a rule made of it decides nothing automatically.
    """
    if isinstance(spec, ir.ConjunctionSpec):
        found: set[str] = set()
        for part in spec.specs:
            found |= spec_effects(part, program)
        return frozenset(found)
    if isinstance(spec, ir.AllSpec | ir.EmptySpec | ir.DistinctSpec | ir.AggregateSpec | ir.NoSensitiveSpec):
        return frozenset(_relation_effects(spec.relation, program))
    if isinstance(spec, ir.SharesValueSpec):
        return frozenset(_relation_effects(spec.left, program) | _relation_effects(spec.right, program))
    if isinstance(spec, ir.FlowSpec):
        return frozenset(name for name, _ in spec.sinks if name in program.effects)
    if isinstance(spec, ir.FluentFinalSpec):
        return frozenset(e.name for e in program.effects.values()
                         if any(u.fluent == spec.fluent for u in e.fluent_updates))
    return frozenset()
