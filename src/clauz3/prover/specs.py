"""Encoding of ``ir.Spec`` over the symbolic trace (01 §2.6–2.7).

Each spec becomes the formula ``fails`` (its negation on this trace). Records made inside
symbolic loops keep their loop index free, so ``fails`` reads it existentially — enough for
``all``/``empty``/``distinct`` without quantifiers. Aggregates over loops use exact closed forms
when the record's guard is just the loop bound, otherwise a sound over-approximation flagged
``approximate`` (a satisfying model then proves nothing: the verdict is ``unknown``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import z3

from clauz3.language import ir
from clauz3.prover.counterexample import hashable, string_chars
from clauz3.prover.logic import conjuncts, mk_and, mk_not, mk_or, occurs, subst, truthy, z3_false, z3_true
from clauz3.prover.state import CallRecord, LoopInfo, SymbolicExecutor
from clauz3.prover.values import NoneV, OptV, RecordV, Unsupported, eq, raw, to_int, val

if TYPE_CHECKING:
    from clauz3.prover.counterexample import ModelView


@dataclass
class Item:
    record: CallRecord
    fields: RecordV
    guard: Any
    loops: tuple[LoopInfo, ...]


@dataclass
class Explanation:
    why: str
    breaking: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class SpecEnc:
    fails: Any
    approximate: bool = False
    fails_under: Any = None  # an under-approximation: every model of it is a real run
    unsupported: str | None = None
    mappings: list[list[tuple[Any, Any]]] = field(default_factory=list)
    explain: Callable[[ModelView], Explanation] | None = None
    approx_reason: str | None = None  # why an approximate spec with no real breaking run stays unknown


# Encoders of spec kinds that live in their own modules (prover/flows.py registers ir.FlowSpec; prover/api.py
# imports it). A kind no module registered stays unsupported: "cannot prove", never a proof.
ENCODERS: dict[type, Callable[[SymbolicExecutor, Any, str], SpecEnc]] = {}


def effect_matches(effect: ir.Effect, targets: tuple[str, ...]) -> bool:
    if not targets:
        return True
    for t in targets:
        if t == effect.name or t == effect.short or effect.name.endswith("." + t):
            return True
    return False


def relation_items(ex: SymbolicExecutor, rel: ir.Relation) -> list[Item]:
    program = ex.program
    out: list[Item] = []
    for r in ex.ctx.records:
        views: list[dict[str, Any]] = []
        if rel.event is None:
            if effect_matches(r.effect, rel.targets):
                views.append(dict(r.args))
        else:
            for pe in r.effect.performs:
                cls = program.events.get(pe.event)
                if pe.event != rel.event and (cls is None or rel.event not in cls.bases):
                    continue
                names = [f for f, _ in cls.fields] if cls else list(pe.args)
                views.append({fname: r.args[arg] for fname, arg in zip(names, pe.args, strict=False)})
        for fields in views:
            rec = RecordV(fields)
            guard = r.guard
            for f in rel.filters:
                guard = mk_and(guard, truthy(ex.eval_pred(f, rec)))
            out.append(Item(r, rec, guard, r.loops))
    return out


def encode(ex: SymbolicExecutor, spec: ir.Spec, label: str) -> SpecEnc:
    try:
        return _encode(ex, spec, label)
    except Unsupported as exc:
        return SpecEnc(z3_false(), unsupported=str(exc))


def _encode(ex: SymbolicExecutor, spec: ir.Spec, label: str) -> SpecEnc:
    if isinstance(spec, ir.TrueSpec):
        return SpecEnc(z3_false())
    if isinstance(spec, ir.ConjunctionSpec):
        return _conjunction(ex, spec, label)
    if isinstance(spec, ir.AllSpec):
        return _all(ex, spec, label)
    if isinstance(spec, ir.EmptySpec):
        return _empty(ex, spec, label)
    if isinstance(spec, ir.DistinctSpec):
        return _distinct(ex, spec)
    if isinstance(spec, ir.AggregateSpec):
        return _aggregate(ex, spec)
    if isinstance(spec, ir.SharesValueSpec):
        return _shares(ex, spec)
    if isinstance(spec, ir.FluentFinalSpec):
        return _fluent(ex, spec)
    if isinstance(spec, ir.NoSensitiveSpec):
        return _no_sensitive(ex, spec, label)
    own = ENCODERS.get(type(spec))
    if own is not None:
        return own(ex, spec, label)
    raise Unsupported(f"spec {type(spec).__name__}")


def _under(p: SpecEnc) -> Any:
    """Formula whose every model is a real failing run of ``p`` (FALSE when none is known)."""
    if not p.approximate:
        return p.fails
    return p.fails_under if p.fails_under is not None else z3_false()


def _conjunction(ex: SymbolicExecutor, spec: ir.ConjunctionSpec, label: str) -> SpecEnc:
    parts = [_encode(ex, s, label) for s in spec.specs]
    bad = next((p.unsupported for p in parts if p.unsupported), None)
    approximate = any(p.approximate for p in parts)

    def explain_all(mv: ModelView) -> Explanation:
        # With an approximate member the model comes from the under-approximation, so the
        # member to blame is the one whose under-approximation the model satisfies.
        for p in parts:
            if mv.true(_under(p) if approximate else p.fails) and p.explain:
                return p.explain(mv)
        return Explanation(f"the run breaks \"{label}\"")
    return SpecEnc(
        fails=mk_or(*[p.fails for p in parts]),
        approximate=approximate,
        fails_under=mk_or(*[_under(p) for p in parts]) if approximate else None,
        unsupported=bad,
        mappings=[m for p in parts for m in p.mappings],
        explain=explain_all,
        approx_reason=next((p.approx_reason for p in parts if p.approx_reason), None),
    )


def _pred(ex: SymbolicExecutor, pred: ir.Pred, item: Item) -> Any:
    return truthy(ex.eval_pred(pred, item.fields))


def _all(ex: SymbolicExecutor, spec: ir.AllSpec, label: str) -> SpecEnc:
    items = relation_items(ex, spec.relation)
    breaks = [(it, mk_and(it.guard, mk_not(_pred(ex, spec.pred, it)))) for it in items]

    def explain(mv: ModelView) -> Explanation:
        # Blame the earliest breaking call of the trace (not whichever loop index the model chose).
        found = sorted((pos, k, assign) for k, (it, f) in enumerate(breaks)
                       for pos, assign in mv.occurrences(it.record, f))
        if found:
            _, k, assign = found[0]
            ref = mv.ref(breaks[k][0].record, assign=assign)
            return Explanation(f"call #{ref.index} {ref.call} at line {ref.line} breaks \"{label}\"", [ref.json()])
        for it, f in breaks:
            if mv.true(f):
                ref = mv.ref(it.record)
                return Explanation(f"call #{ref.index} {ref.call} at line {it.record.line} breaks \"{label}\"",
                                   [ref.json()])
        return Explanation(f"the run breaks \"{label}\"")
    return SpecEnc(mk_or(*[f for _, f in breaks]), explain=explain)


def _known_text(v: Any, guard: Any) -> tuple[str | None, Any, bool]:
    """``(text, guard, known)``: the argument's text where it is one literal (None: no text passed)."""
    v = raw(v)
    if isinstance(v, NoneV):
        return None, guard, True
    if isinstance(v, OptV):
        if z3.is_true(z3.simplify(v.is_none)):
            return None, guard, True
        guard = mk_and(guard, mk_not(v.is_none))
        v = raw(v.value)
    if isinstance(v, z3.SeqRef):
        s = z3.simplify(v)
        if z3.is_string_value(s):
            return string_chars(s), guard, True
    return None, guard, False


def _no_sensitive(ex: SymbolicExecutor, spec: ir.NoSensitiveSpec, label: str) -> SpecEnc:
    """Proved only where every call's text is known before the run (NFKC is not in the solver's
    theory); a known text holding a value is a real violation; a computed text stays unknown."""
    from clauz3.language.sensitive import contains_sensitive

    sure: list[tuple[Item, Any]] = []
    unsure: list[tuple[Item, Any]] = []
    for it in relation_items(ex, spec.relation):
        text, guard, known = _known_text(it.fields.fields.get(spec.field), it.guard)
        if not known:
            unsure.append((it, guard))
        elif text is not None and contains_sensitive(text, spec.digests):
            sure.append((it, guard))

    def explain(mv: ModelView) -> Explanation:
        for it, g in sure + unsure:
            if mv.true(g):
                ref = mv.ref(it.record)
                return Explanation(f"call #{ref.index} {ref.call} at line {it.record.line} passes {spec.what} in "
                                   f"{spec.field}: breaks \"{label}\"", [ref.json()])
        return Explanation(f"the run breaks \"{label}\"")
    fails = mk_or(*[g for _, g in sure + unsure])
    if not unsure:
        return SpecEnc(fails, explain=explain)
    return SpecEnc(fails, approximate=True, fails_under=mk_or(*[g for _, g in sure]), explain=explain,
                   approx_reason=f"{spec.field} is computed when the program runs; clauz3 proves that it holds "
                                 f"none of {spec.what} only for text known before the run (the run-time monitor "
                                 f"checks every call)")


def _empty(ex: SymbolicExecutor, spec: ir.EmptySpec, label: str) -> SpecEnc:
    items = relation_items(ex, spec.relation)

    def explain(mv: ModelView) -> Explanation:
        found = sorted((pos, k, assign) for k, it in enumerate(items) for pos, assign in mv.occurrences(it.record, it.guard))
        hits = [mv.ref(items[k].record, assign=assign) for _, k, assign in found[:1]]
        if not hits:
            hits = [mv.ref(it.record) for it in items if mv.true(it.guard)]
            hits.sort(key=lambda r: r.index if isinstance(r.index, int) else 1 << 30)
        if hits:
            ref = hits[0]
            return Explanation(f"call #{ref.index} {ref.call} at line {ref.line} breaks \"{label}\"", [ref.json()])
        return Explanation(f"the run breaks \"{label}\"")
    return SpecEnc(mk_or(*[it.guard for it in items]), explain=explain)


def _fresh_mapping(ex: SymbolicExecutor, loops: tuple[LoopInfo, ...]) -> list[tuple[Any, Any]]:
    return [(lp.index, z3.Int(ex.ctx.name("j"))) for lp in loops]


def _key_label(pred: ir.Pred) -> str:
    body = pred.body
    if isinstance(body, ir.FieldGet) and isinstance(body.value, ir.RecordVar):
        return body.field
    src = pred.source
    return src.split(":", 1)[1].strip() if src.startswith("lambda") and ":" in src else src


def _distinct(ex: SymbolicExecutor, spec: ir.DistinctSpec) -> SpecEnc:
    items = relation_items(ex, spec.relation)
    keys = [ex.eval_pred(spec.key, it.fields) for it in items]
    pairs: list[tuple[Item, Item, list[tuple[Any, Any]], Any]] = []
    mappings: list[list[tuple[Any, Any]]] = []
    for a in range(len(items)):
        for b in range(a, len(items)):
            ia, ib = items[a], items[b]
            if a == b and not ia.loops:
                continue
            mapping = _fresh_mapping(ex, ib.loops)
            kb = subst(keys[b], mapping)
            gb = subst(ib.guard, mapping)
            conds = [ia.guard, gb, eq(keys[a], kb, ex.ctx.fresh_bool)]
            if a == b:
                conds.append(mk_or(*[old != new for old, new in mapping]))
            if mapping:
                mappings.append(mapping)
            pairs.append((ia, ib, mapping, mk_and(*conds)))
    name = _key_label(spec.key)

    def explain(mv: ModelView) -> Explanation:
        first = _first_duplicate(mv, items, keys)
        if first is not None:
            (_, ka, aa), (_, kb, ab) = first
            ra, rb = mv.ref(items[ka].record, assign=aa), mv.ref(items[kb].record, assign=ab)
            value = mv.show(keys[ka], aa)
            return Explanation(f"calls #{ra.index} (line {ra.line}) and #{rb.index} (line {rb.line}) both have "
                               f"{name} = {value}", [ra.json(), rb.json()])
        for ia, ib, mapping, f in pairs:
            if mv.true(f):
                ra, rb = mv.ref(ia.record), mv.ref(ib.record, mapping)
                first, second = sorted([ra, rb], key=lambda r: r.index)
                value = mv.show(keys[items.index(ia)])
                return Explanation(f"calls #{first.index} (line {first.line}) and #{second.index} "
                                   f"(line {second.line}) both have {name} = {value}", [first.json(), second.json()])
        return Explanation("two calls share a key")
    return SpecEnc(mk_or(*[f for *_, f in pairs]), mappings=mappings, explain=explain)


def _first_duplicate(mv: ModelView, items: list[Item], keys: list[Any]) -> Any:
    """The two earliest calls of the trace (by the second one's number) with equal keys, if any."""
    found = sorted((pos, k, assign) for k, it in enumerate(items) for pos, assign in mv.occurrences(it.record, it.guard))
    seen: dict[Any, tuple[int, int, Any]] = {}
    for pos, k, assign in found:
        try:
            value = hashable(mv.value(keys[k], assign))
            earlier = seen.get(value)
        except TypeError:
            return None
        if earlier is not None and earlier[0] != pos:
            return earlier, (pos, k, assign)
        seen.setdefault(value, (pos, k, assign))
    return None


def _loop_bound_parts(loop: LoopInfo) -> list[Any]:
    return [loop.index >= 0, loop.index < loop.length]


def _aggregate(ex: SymbolicExecutor, spec: ir.AggregateSpec) -> SpecEnc:
    items = relation_items(ex, spec.relation)
    total: Any = z3.IntVal(0)
    count: Any = z3.IntVal(0)
    under: Any = z3.IntVal(0)
    under_count: Any = z3.IntVal(0)
    approximate = False
    for it in items:
        value = to_int(val(ex.eval_pred(spec.value, it.fields))) if spec.value else z3.IntVal(1)
        if not it.loops:
            total = total + z3.If(it.guard, value, 0)
            under = under + z3.If(it.guard, value, 0)
            under_count = under_count + z3.If(it.guard, 1, 0)
            count = count + z3.If(it.guard, 1, 0)
            continue
        if len(it.loops) > 1:
            # Nested symbolic loops: the call happens k times for some 0 <= k <= the product of the
            # loops' lengths (0 when a condition outside every loop fails); a value that no loop's
            # row decides adds value * k. Approximate: a break is confirmed by runs where every
            # iteration calls (issue 18: nested loops over two trusted row lists).
            indices = [lp.index for lp in it.loops]
            if any(occurs(lp.length, i) for lp in it.loops for i in indices):
                # An inner list fetched inside the outer loop: its length differs per row.
                raise Unsupported("an aggregate over nested symbolic loops whose inner list is fetched in the loop")
            if any(occurs(value, i) for i in indices):
                raise Unsupported("a sum whose value depends on a row of nested symbolic loops")
            bounds = [b for lp in it.loops for b in _loop_bound_parts(lp)]
            rest = [c for c in conjuncts(it.guard) if not any(c.eq(b) for b in bounds)]
            outer = [c for c in rest if not any(occurs(c, i) for i in indices)]
            size: Any = z3.IntVal(1)
            for lp in it.loops:
                size = size * lp.length
            approximate = True
            k = ex.ctx.fresh(z3.IntSort(), "count")
            ex.ctx.assume(z3.And(k >= 0, k <= size))
            ex.ctx.assume(z3.Implies(mk_not(mk_and(*outer)), k == 0))
            total = total + value * k
            count = count + k
            # Runs where every list's rows all equal its row at the free index: then each condition
            # holds on every iteration or on none, so the call happens exactly ``size`` times or never.
            # Such a run exists only when the loops walk different lists (two loops over one list
            # would force their two rows equal), so a shared length term keeps the weaker bound.
            lengths = [lp.length for lp in it.loops]
            distinct = all(not a.eq(b) for n, a in enumerate(lengths) for b in lengths[n + 1:])
            every = z3.If(mk_and(*rest), size, 0) if distinct or all(
                not any(occurs(c, i) for i in indices) for c in rest) else z3.IntVal(0)
            under = under + value * every
            under_count = under_count + every
            continue
        loop = it.loops[0]
        bound = _loop_bound_parts(loop)
        rest = [c for c in conjuncts(it.guard) if not any(c.eq(b) for b in bound)]
        exact = all(not occurs(c, loop.index) for c in rest)
        if exact and not occurs(value, loop.index):
            total = total + z3.If(mk_and(*rest), loop.length * value, 0)
            under = under + z3.If(mk_and(*rest), loop.length * value, 0)
            under_count = under_count + z3.If(mk_and(*rest), loop.length, 0)
            count = count + z3.If(mk_and(*rest), loop.length, 0)
            continue
        if spec.value is not None:
            raise Unsupported("a sum whose value depends on a symbolic loop's row")
        approximate = True
        k = ex.ctx.fresh(z3.IntSort(), "count")
        outer = [c for c in rest if not occurs(c, loop.index)]
        ex.ctx.assume(z3.And(k >= 0, k <= loop.length))
        ex.ctx.assume(z3.Implies(mk_not(mk_and(*outer)), k == 0))
        total = total + k
        count = count + k
        # Runs whose rows all equal row i: then the count is exactly the length or zero.
        under = under + z3.If(mk_and(*rest), loop.length, 0)
        under_count = under_count + z3.If(mk_and(*rest), loop.length, 0)
    def compare(t: Any) -> Any:
        return {"<=": t <= spec.bound, "<": t < spec.bound, ">=": t >= spec.bound,
                ">": t > spec.bound, "==": t == spec.bound, "!=": t != spec.bound}[spec.op]
    holds = compare(total)

    def explain(mv: ModelView, count_t: Any = count, total_t: Any = total) -> Explanation:
        refs = []
        for it in items:
            for assign in mv.iterations(it.loops):
                if mv.true(it.guard, assign):
                    refs.append(mv.ref(it.record, assign))
        refs.sort(key=lambda r: r.index if isinstance(r.index, int) else 1 << 30)
        lines: list[int] = []
        for r in refs:
            if r.line not in lines:
                lines.append(r.line)
        n = mv.value(count_t)
        amount = mv.value(total_t)
        noun = "matching call" if n == 1 else "matching calls"
        where = ""
        if lines:
            where = f" (line{'s' if len(lines) > 1 else ''} {', '.join(str(x) for x in lines)})"
        return Explanation(f"{n} {noun}{where} total {amount}, but the limit is {spec.op} {spec.bound}",
                           [r.json() for r in refs[:20]])
    if approximate:
        def explain_under(mv: ModelView) -> Explanation:
            return explain(mv, under_count, under)
        return SpecEnc(mk_not(holds), approximate=True, fails_under=mk_not(compare(under)), explain=explain_under)
    return SpecEnc(mk_not(holds), explain=explain)


def _shares(ex: SymbolicExecutor, spec: ir.SharesValueSpec) -> SpecEnc:
    left, right = relation_items(ex, spec.left), relation_items(ex, spec.right)
    if any(it.loops for it in left + right):
        raise Unsupported("shares_value over calls in a symbolic loop")
    kl = [ex.eval_pred(spec.key, it.fields) for it in left]
    kr = [ex.eval_pred(spec.key, it.fields) for it in right]
    options = [mk_and(a.guard, b.guard, eq(ka, kb, ex.ctx.fresh_bool))
               for a, ka in zip(left, kl, strict=True) for b, kb in zip(right, kr, strict=True)]
    name = _key_label(spec.key)

    def explain(mv: ModelView) -> Explanation:
        ga = [mv.ref(it.record) for it in left if mv.true(it.guard)]
        gb = [mv.ref(it.record) for it in right if mv.true(it.guard)]

        def group(refs: list[Any]) -> str:
            return "; ".join(f"#{r.index} line {r.line} {r.call}" for r in refs) or "no calls"
        return Explanation(f"no call in the first group shares {name} with a call in the second group "
                           f"(first group: {group(ga)}; second group: {group(gb)})",
                           [r.json() for r in ga + gb])
    return SpecEnc(mk_not(mk_or(*options)), explain=explain)


def _update_value(ex: SymbolicExecutor, ref: tuple[str, Any], record: CallRecord) -> Any:
    kind, v = ref
    return record.args[v] if kind == "param" else ex.const(v)


def _fluent(ex: SymbolicExecutor, spec: ir.FluentFinalSpec) -> SpecEnc:
    fl = ex.program.fluents.get(spec.fluent)
    if fl is None:
        fl = next((f for f in ex.program.fluents.values() if f.name == spec.fluent), None)
    if fl is None:
        raise Unsupported(f"fluent {spec.fluent}")
    updates: list[tuple[CallRecord, Any, Any]] = []
    for r in ex.ctx.records:
        for u in r.effect.fluent_updates:
            if u.fluent != spec.fluent and u.fluent != fl.name:
                continue
            if r.loops:
                raise Unsupported(f"fluent {fl.name} is updated inside a symbolic loop")
            updates.append((r, _update_value(ex, u.key, r), _update_value(ex, u.value, r)))

    def final(key: Any) -> tuple[Any, list[tuple[CallRecord, Any]]]:
        value = ex.const(fl.initial)
        sets = []
        for r, k, v in updates:
            hit = mk_and(r.guard, eq(k, key, ex.ctx.fresh_bool))
            sets.append((r, hit))
            value = z3.If(hit, raw(v), raw(value)) if not z3.is_false(hit) else value
        return value, sets

    if spec.pred is not None:
        key = ex.fresh_value(fl.key, f"{fl.name}_key", label=f"{fl.name} key")
        value, sets = final(key)
        fails = mk_not(truthy(ex.eval_pred(spec.pred, RecordV({"key": key, "value": value}))))
    else:
        key = ex.const(spec.key)
        value, sets = final(key)
        same = eq(value, ex.const(spec.value), ex.ctx.fresh_bool)
        fails = mk_not(same) if spec.op == "==" else same

    def explain(mv: ModelView) -> Explanation:
        last = None
        for r, hit in sets:
            if mv.true(hit):
                last = r
        origin = f" (last set by {last.effect.short} at line {last.line})" if last else " (never set: initial value)"
        breaking = [mv.ref(last).json()] if last else []
        return Explanation(f"after the run {fl.name}[{mv.show(key)}] is {mv.show(value)}{origin}", breaking)
    return SpecEnc(fails, explain=explain)


__all__ = ["Explanation", "SpecEnc", "encode", "relation_items", "z3_true"]
