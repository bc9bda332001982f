"""Compile the vocabulary's spec objects (``clauz3.spec``, ``clauz3.events``, ``clauz3.fluent``)
into :mod:`clauz3.language.ir` specs (01 §2.6, REL-1…5, EVT-3, FLU-1).

Spec classes are recognised by class name so this module never depends on their internals
beyond the attributes listed in docs/internals.md.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.effects import ensure_event, ensure_fluent
from clauz3.language.errors import LanguageError
from clauz3.language.predicates import PredError, compile_pred

if TYPE_CHECKING:
    from clauz3.language.context import ProgramContext


class SpecError(LanguageError):
    """A spec that cannot be compiled; ``code`` is contract-error, unknown-effect or ambiguous-effect."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


OPS = ("<=", "<", ">=", ">", "==", "!=")


class SpecCompiler:
    def __init__(self, ctx: ProgramContext) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------------------ specs

    def spec(self, obj: Any) -> Any:
        kind = type(obj).__name__
        if kind == "AllSpec":
            rel = self.relation(obj.relation)
            return ir.AllSpec(rel, self.pred(obj.pred, rel, "all"))
        if kind == "EmptySpec":
            return ir.EmptySpec(self.relation(obj.relation))
        if kind == "DistinctSpec":
            rel = self.relation(obj.relation)
            return ir.DistinctSpec(rel, self.pred(obj.key, rel, "distinct"))
        if kind == "AggregateSpec":
            sum_spec = obj.sum_spec
            rel = self.relation(sum_spec.relation)
            value = None
            if sum_spec.value is not None:
                value = self.pred(sum_spec.value, rel, "sum")
                if not T.is_intlike(value.body.type):
                    raise SpecError("contract-error",
                                    f"`sum` selector must be int, got {T.show(value.body.type)}")
            n = obj.n
            if type(n) is not int:
                raise SpecError("contract-error", "aggregates compare with int")
            if obj.op not in OPS:
                raise SpecError("contract-error", f"unknown aggregate comparison {obj.op!r}")
            return ir.AggregateSpec(rel, value, obj.op, n)
        if kind == "SharesValueSpec":
            left, right = self.relation(obj.left), self.relation(obj.right)
            common = {k: v for k, v in self._fields(left).items() if k in self._fields(right)}
            key = self._pred_with(obj.key, common, "shares_value")
            return ir.SharesValueSpec(left, right, key)
        if kind == "ChangesOnlySpec":
            rel = self.relation(obj.relation)
            return ir.AllSpec(rel, self._changes_only(rel, tuple(obj.fields)))
        if kind == "NoSensitiveSpec":
            return self._no_sensitive(obj)
        if kind == "FlowSpec":
            return self._flow(obj)
        if kind == "ConjunctionSpec":
            return ir.ConjunctionSpec(tuple(self.spec(s) for s in obj.specs))
        if kind == "NoGuaranteesSpec":
            return ir.TrueSpec()
        if kind == "FluentFinalSpec":
            name = self._fluent(obj.fluent)
            fl = self.ctx.fluents[name]
            for what, v, t in (("key", obj.key, fl.key), ("value", obj.value, fl.value)):
                if T.const_type(v) != t and not (t == ir.INT and type(v) is int):
                    raise SpecError("contract-error", f"fluent `{name}` {what} must be {T.show(t)}, got {v!r}")
            if obj.op not in ("==", "!="):
                raise SpecError("contract-error", "fluent finals compare with == or !=")
            return ir.FluentFinalSpec(name, obj.op, obj.key, obj.value)
        if kind == "FluentFinalAllSpec":
            name = self._fluent(obj.fluent)
            fl = self.ctx.fluents[name]
            pred = self._pred_with(obj.pred, {"key": fl.key, "value": fl.value}, "final.all")
            return ir.FluentFinalSpec(name, "all", pred=pred)
        raise SpecError("contract-error", f"a contract helper returned {kind}, which is not a guarantee spec")

    def _changes_only(self, rel: ir.Relation, allowed: tuple[str, ...]) -> ir.Pred:
        """``e.f == None and …`` over every update field (a None-default parameter) not in ``allowed``.

        Built as IR, not as Python source, so it is checked by the same prover and monitor as any
        ``all``; the fields are those of every target, and a name that is not one is refused.
        """
        if rel.event is not None or not rel.targets:
            raise SpecError("contract-error", "changes_only takes a relation over named update effects")
        per_target: list[set[str]] = []
        for name in rel.targets:
            eff = self.ctx.effect(name)
            if eff is None:
                raise SpecError("contract-error", f"changes_only: effect {name} could not be read")
            per_target.append({p.name for p in eff.params
                               if p.default is not None and p.default.value is None})
        every = set.intersection(*per_target)
        anywhere = set.union(*per_target)
        if not anywhere:
            raise SpecError("contract-error", "changes_only: the effects have no update fields "
                                              "(parameters whose default is None)")
        for f in allowed:
            if f not in every:
                raise SpecError("contract-error", f"changes_only: `{f}` is not an update field of every effect "
                                                  f"(fields: {', '.join(sorted(every)) or 'none'})")
        fixed = sorted(anywhere - set(allowed))
        types = self._fields(rel)
        rv = ir.RecordVar("e", 1, 1)
        parts: list[Any] = []
        for f in fixed:
            if f not in types:
                # A field only some targets have cannot be read on every call: refuse rather than skip it.
                raise SpecError("contract-error", f"changes_only: `{f}` is not a field of every effect in the relation")
            ftype = types[f]
            parts.append(ir.Compare(ir.FieldGet(rv, f, ftype, 1, 1), ("==",), (ir.Const(None, ir.NONE, 1, 1),),
                                    ir.BOOL, 1, 1))
        body: Any
        if not parts:
            body = ir.Const(True, ir.BOOL, 1, 1)
        elif len(parts) == 1:
            body = parts[0]
        else:
            body = ir.BoolOp("and", tuple(parts), ir.BOOL, 1, 1)
        source = " and ".join(f"e.{f} == None" for f in fixed) or "True"
        return ir.Pred("e", body, f"lambda e: {source}", "<changes_only>", 1)

    def _no_sensitive(self, obj: Any) -> ir.NoSensitiveSpec:
        from clauz3.language.sensitive import digests

        rel = self.relation(obj.relation)
        if rel.event is not None or not rel.targets:
            raise SpecError("contract-error", "no_sensitive_values_in takes a relation over named effects")
        ftype = self._fields(rel).get(obj.field)
        if ftype is None:
            raise SpecError("contract-error", f"no_sensitive_values_in: `{obj.field}` is not a parameter of every "
                                              f"effect in the relation")
        if ftype not in (ir.STR, ir.TOptional(ir.STR)):
            raise SpecError("contract-error", f"no_sensitive_values_in: `{obj.field}` is {T.show(ftype)}, "
                                              f"not a text parameter")
        values = obj.values
        table = digests(tuple(values.values))
        if not table:
            raise SpecError("contract-error", "no_sensitive_values_in: the layer declared no sensitive values")
        return ir.NoSensitiveSpec(rel, obj.field, table, str(values.what))

    def _flow(self, obj: Any) -> ir.FlowSpec:
        """``flows.never`` / ``flows.only``: sources and sinks resolved against the layer (REL-1)."""
        if obj.mode not in ("never", "only"):
            raise SpecError("contract-error", f"unknown flow guarantee {obj.mode!r}")
        sources = self.targets(tuple(obj.sources)) if obj.sources else ()
        sinks: list[tuple[str, str]] = []
        for sink in obj.sinks:
            for name in self.targets(tuple(sink.relation.targets)):
                eff = self.ctx.effect(name)
                if eff is None or sink.param not in {p.name for p in eff.params}:
                    raise SpecError("contract-error", f"flows: `{sink.param}` is not a parameter of "
                                                      f"{name.rsplit('.', 1)[-1]}")
                if (name, sink.param) not in sinks:
                    sinks.append((name, sink.param))
        return ir.FlowSpec(obj.mode, tuple(sorted(set(sources))), tuple(sinks))

    def _fluent(self, decl: Any) -> str:
        ensure_fluent(self.ctx, decl)
        return str(decl.name)

    # ------------------------------------------------------------------------ relations

    def relation(self, obj: Any) -> ir.Relation:
        filters: list[Any] = []
        while type(obj).__name__ == "FilteredRelation":
            filters.append(obj.pred)
            obj = obj.base
        filters.reverse()
        kind = type(obj).__name__
        if isinstance(obj, type):  # an Event subclass used directly
            obj = obj.relation()  # type: ignore[attr-defined]  # an Event subclass (clauz3.events) stands for its relation
            kind = type(obj).__name__
        if kind == "EffectRelation":
            targets = self.targets(obj.targets)
            fields = self._effect_fields(targets)
            base = ir.Relation(targets, None, (), tuple(fields))
        elif kind == "EventRelation":
            key = self.ctx.layer.event_key(obj.event_cls)
            if key is None:
                raise SpecError("contract-error", f"{obj.event_cls!r} is not an Event class")
            self._require_performed(key)
            filters = list(getattr(obj, "filters", ())) + filters
            fields = self._event_fields(key)
            base = ir.Relation((), key, (), tuple(fields))
        else:
            raise SpecError("contract-error", f"{kind} is not a relation")
        preds = tuple(self.pred(f, base, "where") for f in filters)
        return ir.Relation(base.targets, base.event, preds, base.fields)

    def targets(self, raw: tuple[Any, ...]) -> tuple[str, ...]:
        lv = self.ctx.layer
        out: list[str] = []
        for t in raw:
            if isinstance(t, str):
                names = lv.effect_by_text(t)
                if not names:
                    raise SpecError("unknown-effect", f"effect({t!r}) names no effect of the layer")
                if len(names) > 1:
                    raise SpecError("ambiguous-effect",
                                    f"effect({t!r}) matches several effects: {', '.join(sorted(names))}")
                name = names[0]
            else:
                found = lv.effect_name(t)
                if found is None:
                    raise SpecError("unknown-effect",
                                    f"effect({getattr(t, '__name__', t)!r}) is not an effect of the layer")
                name = found
            if name not in out:
                out.append(name)
        if not raw:
            out = list(lv.effects)
        for name in out:
            self.ctx.effect(name)
        return tuple(out) if raw else ()

    def _effect_fields(self, targets: tuple[str, ...]) -> dict[str, Any]:
        names = targets or tuple(self.ctx.layer.effects)
        common: dict[str, Any] | None = None
        for n in names:
            eff = self.ctx.effect(n)
            if eff is None:
                continue
            fields = {p.name: p.type for p in eff.params}
            if common is None:
                common = fields
            else:
                common = {k: (v if v == fields[k] else (T.join(v, fields[k]) or ir.OBJECT))
                          for k, v in common.items() if k in fields}
        return common or {}

    def _event_fields(self, key: str) -> dict[str, Any]:
        ensure_event(self.ctx, key)
        fields = dict(self.ctx.events[key].fields) if key in self.ctx.events else {}
        # Fields declared on subclasses are readable too (unconstrained for events that lack them).
        for other_key in sorted(self.ctx.layer.events):
            if other_key == key:
                continue
            ensure_event(self.ctx, other_key)
            ev = self.ctx.events.get(other_key)
            if ev is not None and key in ev.bases:
                for f, t in ev.fields:
                    fields.setdefault(f, t)
        return fields

    def _require_performed(self, key: str) -> None:
        """EVT-3: a relation over an event no effect performs is a contract-error."""
        ensure_event(self.ctx, key)
        for name in self.ctx.layer.effects:
            eff = self.ctx.effect(name)
            if eff is None:
                continue
            for pe in eff.performs:
                ev = self.ctx.events.get(pe.event)
                if pe.event == key or (ev is not None and key in ev.bases):
                    return
        raise SpecError("contract-error", f"no effect of the layer performs {key.rsplit('.', 1)[-1]}")

    def _fields(self, rel: ir.Relation) -> dict[str, Any]:
        if rel.event is not None:
            return self._event_fields(rel.event)
        return self._effect_fields(rel.targets)

    # ------------------------------------------------------------------------ predicates

    def pred(self, fn: Any, rel: ir.Relation, what: str) -> ir.Pred:
        return self._pred_with(fn, self._fields(rel), what)

    def _pred_with(self, fn: Any, fields: dict[str, Any], what: str) -> ir.Pred:
        try:
            return compile_pred(self.ctx, fn, fields, f"`{what}`")
        except PredError as exc:
            raise SpecError("contract-error", str(exc)) from None


# ------------------------------------------------------------------------ safety / completion

_NONNEG = re.compile(r"^\s*(?:(\w+)\s*>=?\s*0|0\s*<=?\s*(\w+))\s*$")


def spec_class(spec: Any, effects: dict[str, ir.Effect]) -> str:
    """REL-5: ``safety`` (a violation shows on a prefix and persists) or ``completion``."""
    if isinstance(spec, (ir.AllSpec, ir.EmptySpec, ir.DistinctSpec, ir.NoSensitiveSpec, ir.FlowSpec, ir.TrueSpec)):
        return "safety"
    if isinstance(spec, ir.ConjunctionSpec):
        return "safety" if all(spec_class(s, effects) == "safety" for s in spec.specs) else "completion"
    if isinstance(spec, ir.AggregateSpec) and spec.op in ("<", "<="):
        if spec.value is None:
            return "safety"
        if _nonneg_summand(spec, effects):
            return "safety"
    return "completion"


def _nonneg_summand(spec: ir.AggregateSpec, effects: dict[str, ir.Effect]) -> bool:
    """Every summand provably ≥ 0: the selector is a field every target's precondition bounds below."""
    body = spec.value.body if spec.value else None
    if not (isinstance(body, ir.FieldGet) and isinstance(body.value, ir.RecordVar)) or spec.relation.event:
        return False
    targets = spec.relation.targets or tuple(effects)
    if not targets:
        return False
    for t in targets:
        eff = effects.get(t)
        if eff is None:
            return False
        ok = False
        for cond in eff.requires:
            for part in cond.source.split(" and "):
                m = _NONNEG.match(part)
                if m and body.field in (m.group(1), m.group(2)):
                    ok = True
        if not ok:
            return False
    return True
