"""Run-time guarantee monitor (MON-1…MON-4): a pure-Python evaluator of ir.Spec over a concrete trace.

Each spec keeps an incremental state (running sums, sets of seen keys) so that the pre-call check
of a prospective call costs time proportional to that call's records, not to the trace: ``probe``
asks whether committed records plus the new ones still satisfy the spec, ``commit`` adds them.
Predicates are evaluated by the interpreter's own evaluator (the pure machine), never by Python.
A predicate that reads a field an event does not declare cannot be decided concretely (EVT-3):
such a record counts as *in* a filtered relation, and fails an ``all`` / key / value predicate.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from clauz3.interp.errors import InterpError
from clauz3.interp.execute import Machine
from clauz3.interp.semantics import OrderedSet, values_equal
from clauz3.interp.trace import CallRecord, Trace
from clauz3.interp.values import MissingField, RecordValue, untag
from clauz3.language import ir
from clauz3.language.flowlabels import describe_path, forbidden
from clauz3.language.sensitive import contains_sensitive

AGG_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


class Undecidable(InterpError):
    """A predicate over a record could not be evaluated (missing field, exception)."""


def freeze(value: Any) -> Any:
    """A hashable, tag-free key for distinct / shares_value comparisons."""
    value = untag(value)
    if isinstance(value, float) and value != value:
        return object()  # NaN equals no key, not even itself (the prover's ==; CPython would match identity)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, (set, frozenset, OrderedSet)):
        return ("set", frozenset(freeze(v) for v in value))
    if isinstance(value, dict):
        # Unordered, as Python's dict ==: {"a": 1, "b": 2} is the same key as {"b": 2, "a": 1}.
        return ("dict", frozenset((freeze(k), freeze(v)) for k, v in value.items()))
    return value  # scalars hash like Python's ==: 1, 1.0 and True are one key


class Evaluation:
    """Evaluates predicates and relation membership on records."""

    def __init__(self, machine: Machine, program: ir.CheckedProgram) -> None:
        self.machine = machine.pure()
        self.run = machine  # the running machine: a flowtrack.LabelMachine knows each call's labels
        self.program = program

    def value(self, pred: ir.Pred, record: RecordValue) -> Any:
        env = {pred.param: record}
        try:
            return self.machine.eval(pred.body, env)
        except MissingField as exc:
            raise Undecidable(f"field {exc} is not declared by {record.name}") from None
        except Exception as exc:  # a predicate that raises cannot confirm the guarantee
            raise Undecidable(str(exc)) from None

    def test(self, pred: ir.Pred, record: RecordValue) -> bool:
        return self.machine.truth(self.value(pred, record))

    def is_event_of(self, record: RecordValue, event: str) -> bool:
        if record.name == event:
            return True
        cls = self.program.events.get(record.name)
        return cls is not None and event in cls.bases

    def members(self, rel: ir.Relation, call: CallRecord, events: Sequence[RecordValue]) -> list[RecordValue]:
        if rel.event is None:
            if rel.targets and call.effect not in rel.targets:
                return []
            candidates = [call.view()]
        else:
            candidates = [e for e in events if self.is_event_of(e, rel.event)]
        out = []
        for rec in candidates:
            try:
                keep = all(self.test(f, rec) for f in rel.filters)
            except Undecidable:
                keep = True  # membership unknown: count it (the stricter reading for upper bounds)
            if keep:
                out.append(rec)
        return out


class SpecState:
    """Incremental evaluation of one spec. ``probe`` must not change the state."""

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        raise NotImplementedError

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        raise NotImplementedError

    def holds(self, trace: Trace) -> bool:
        raise NotImplementedError


class TrueState(SpecState):
    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        return True

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        return None

    def holds(self, trace: Trace) -> bool:
        return True


class _PerCallState(SpecState):
    """A guarantee decided call by call: once one call fails it, it stays failed."""

    ok: bool

    def _check(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        raise NotImplementedError

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        return self.ok and self._check(call, events)

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        self.ok = self.ok and self._check(call, events)

    def holds(self, trace: Trace) -> bool:
        return self.ok


class AllState(_PerCallState):
    def __init__(self, ev: Evaluation, spec: ir.AllSpec) -> None:
        self.ev, self.spec, self.ok = ev, spec, True

    def _check(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        for rec in self.ev.members(self.spec.relation, call, events):
            try:
                if not self.ev.test(self.spec.pred, rec):
                    return False
            except Undecidable:
                return False
        return True

class NoSensitiveState(_PerCallState):
    """Issue 20: the call's real text is tested against the layer's value digests (NFKC, case-folded)."""

    def __init__(self, ev: Evaluation, spec: ir.NoSensitiveSpec) -> None:
        self.ev, self.spec, self.ok = ev, spec, True

    def _check(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        for rec in self.ev.members(self.spec.relation, call, events):
            value = untag(rec.get(self.spec.field))
            if value is None:
                continue
            if not isinstance(value, str):
                return False  # not a text we can read: cannot confirm the guarantee
            if contains_sensitive(value, self.spec.digests):
                return False
        return True

class FlowState(_PerCallState):
    """Issue 20: the labels the run really carries into the call's parameters (interp/flowtrack.py).

    A machine that tracks no labels cannot confirm the guarantee: the call is refused."""

    def __init__(self, ev: Evaluation, spec: ir.FlowSpec) -> None:
        self.ev, self.spec, self.ok = ev, spec, True
        self.why: str | None = None

    def _check(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        params = [p for eff, p in self.spec.sinks if eff == call.effect]
        if not params:
            return True
        now = getattr(self.ev.run, "call_labels_now", None)
        labels = now() if callable(now) else None
        if labels is None:
            self.why = "the run tracks no data-flow labels"
            return False
        for p in params:
            bad = forbidden(self.spec, labels.get(p, {}))
            if bad:
                self.why = f"{call.short}'s {p} carries {describe_path(labels[p][bad[0]])}"
                return False
        return True


class EmptyState(SpecState):
    def __init__(self, ev: Evaluation, spec: ir.EmptySpec) -> None:
        self.ev, self.spec, self.ok = ev, spec, True

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        return self.ok and not self.ev.members(self.spec.relation, call, events)

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        self.ok = self.probe(call, events)

    def holds(self, trace: Trace) -> bool:
        return self.ok


class DistinctState(SpecState):
    def __init__(self, ev: Evaluation, spec: ir.DistinctSpec) -> None:
        self.ev, self.spec, self.ok = ev, spec, True
        self.seen: set[Any] = set()

    def _keys(self, call: CallRecord, events: Sequence[RecordValue]) -> list[Any] | None:
        try:
            return [freeze(self.ev.value(self.spec.key, r)) for r in self.ev.members(self.spec.relation, call, events)]
        except (Undecidable, TypeError):
            return None

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        keys = self._keys(call, events)
        if not self.ok or keys is None:
            return False
        return len(set(keys)) == len(keys) and not any(k in self.seen for k in keys)

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        ok = self.probe(call, events)
        self.ok = self.ok and ok
        self.seen.update(self._keys(call, events) or [])

    def holds(self, trace: Trace) -> bool:
        return self.ok


class AggregateState(SpecState):
    def __init__(self, ev: Evaluation, spec: ir.AggregateSpec) -> None:
        self.ev, self.spec = ev, spec
        self.total = 0
        self.decidable = True

    def _delta(self, call: CallRecord, events: Sequence[RecordValue]) -> int | None:
        members = self.ev.members(self.spec.relation, call, events)
        if self.spec.value is None:
            return len(members)
        total = 0
        for rec in members:
            try:
                v = untag(self.ev.value(self.spec.value, rec))
            except Undecidable:
                return None
            if not isinstance(v, int):
                return None
            total += v
        return total

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        delta = self._delta(call, events)
        if not self.decidable or delta is None:
            return False
        return AGG_OPS[self.spec.op](self.total + delta, self.spec.bound)

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        delta = self._delta(call, events)
        if delta is None:
            self.decidable = False
        else:
            self.total += delta

    def holds(self, trace: Trace) -> bool:
        return self.decidable and AGG_OPS[self.spec.op](self.total, self.spec.bound)


class SharesValueState(SpecState):
    def __init__(self, ev: Evaluation, spec: ir.SharesValueSpec) -> None:
        self.ev, self.spec = ev, spec
        self.left: set[Any] = set()
        self.right: set[Any] = set()
        self.found = False

    def _side(self, rel: ir.Relation, call: CallRecord, events: Sequence[RecordValue]) -> list[Any]:
        out = []
        for rec in self.ev.members(rel, call, events):
            try:
                out.append(freeze(self.ev.value(self.spec.key, rec)))
            except (Undecidable, TypeError):
                continue  # an undecidable key cannot witness sharing
        return out

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        return True  # completion spec: judged on the finished run only

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        for k in self._side(self.spec.left, call, events):
            self.left.add(k)
            self.found = self.found or k in self.right
        for k in self._side(self.spec.right, call, events):
            self.right.add(k)
            self.found = self.found or k in self.left

    def holds(self, trace: Trace) -> bool:
        return self.found


def _raw(value: Any) -> Any:
    return value.value if isinstance(value, ir.Const) else value


class FluentFinalState(SpecState):
    def __init__(self, ev: Evaluation, spec: ir.FluentFinalSpec) -> None:
        self.ev, self.spec = ev, spec

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        return True

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        return None

    def holds(self, trace: Trace) -> bool:
        return self._judge(trace, finished=True) is True

    def reached(self, trace: Trace) -> bool | None:
        """The spec on the state a run that ended early actually reached; None when it cannot be told."""
        return self._judge(trace, finished=False)

    def _judge(self, trace: Trace, *, finished: bool) -> bool | None:
        spec = self.spec
        if spec.pred is None:
            current = trace.fluent_value(spec.fluent, _raw(spec.key))
            # Python's == (the contract's own meaning, and the prover's): True equals 1 in an int fluent.
            equal = values_equal(current, _raw(spec.value))
            return equal if spec.op == "==" else not equal
        decl = trace.program.fluents.get(spec.fluent)
        state = trace.fluents.get(spec.fluent, {})
        for key, value in state.items():
            try:
                if not self.ev.test(spec.pred, RecordValue("fluent", spec.fluent, {"key": key, "value": value})):
                    return False
            except Undecidable:
                return False if finished else None
        # Never-set keys hold the initial value; a predicate that reads the key itself cannot be
        # decided for all of them. For a finished run the prover has already judged them; after an
        # early end the proof says nothing (the finished run might have set them), so it is unknown.
        probe = RecordValue("fluent", spec.fluent, {"value": decl.initial if decl is not None else None})
        try:
            return self.ev.test(spec.pred, probe)
        except Undecidable:
            return True if finished else None


class ConjunctionState(SpecState):
    def __init__(self, members: list[SpecState]) -> None:
        self.members = members

    def probe(self, call: CallRecord, events: Sequence[RecordValue]) -> bool:
        return all(m.probe(call, events) for m in self.members)

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        for m in self.members:
            m.commit(call, events)

    def holds(self, trace: Trace) -> bool:
        return all(m.holds(trace) for m in self.members)

    def reached(self, trace: Trace) -> bool | None:
        verdicts = [reached(m, trace) for m in self.members]
        if False in verdicts:
            return False
        return None if None in verdicts else True


def build_state(ev: Evaluation, spec: Any) -> SpecState:
    if isinstance(spec, ir.AllSpec):
        return AllState(ev, spec)
    if isinstance(spec, ir.EmptySpec):
        return EmptyState(ev, spec)
    if isinstance(spec, ir.DistinctSpec):
        return DistinctState(ev, spec)
    if isinstance(spec, ir.AggregateSpec):
        return AggregateState(ev, spec)
    if isinstance(spec, ir.SharesValueSpec):
        return SharesValueState(ev, spec)
    if isinstance(spec, ir.FluentFinalSpec):
        return FluentFinalState(ev, spec)
    if isinstance(spec, ir.ConjunctionSpec):
        return ConjunctionState([build_state(ev, s) for s in spec.specs])
    if isinstance(spec, ir.NoSensitiveSpec):
        return NoSensitiveState(ev, spec)
    if isinstance(spec, ir.FlowSpec):
        return FlowState(ev, spec)
    if isinstance(spec, ir.TrueSpec):
        return TrueState()
    raise TypeError(f"unknown spec {type(spec).__name__}")


def is_end_state(spec: Any) -> bool:
    """Whether ``spec`` speaks about the fluent state at the end of the run (``F.final[...]``)."""
    if isinstance(spec, ir.FluentFinalSpec):
        return True
    return isinstance(spec, ir.ConjunctionSpec) and any(is_end_state(s) for s in spec.specs)


def reached(state: SpecState, trace: Trace) -> bool | None:
    """A spec judged on a run that ended early: end-state parts on the state reached, the rest as usual
    (safety parts were checked before every call, so ``holds`` is their truth so far)."""
    if isinstance(state, (FluentFinalState, ConjunctionState)):
        return state.reached(trace)
    return state.holds(trace)


class Monitor:
    """Watches one run against the given guarantees (MON-2)."""

    def __init__(self, machine: Machine, program: ir.CheckedProgram, guarantees: Sequence[ir.Guarantee]) -> None:
        ev = Evaluation(machine, program)
        self.entries = [(g, build_state(ev, g.spec)) for g in guarantees]
        self.why: str | None = None

    def precheck(self, call: CallRecord, events: Sequence[RecordValue]) -> ir.Guarantee | None:
        """The first safety guarantee the prospective call would break, else None."""
        self.why = None
        for g, state in self.entries:
            if g.cls == "safety" and not state.probe(call, events):
                self.why = getattr(state, "why", None)  # a flow guarantee names the path of the value
                return g
        return None

    def commit(self, call: CallRecord, events: Sequence[RecordValue]) -> None:
        for _, state in self.entries:
            state.commit(call, events)

    def end_state(self, trace: Trace) -> list[tuple[ir.Guarantee, bool | None]]:
        """Issue 10 family 8: every end-state guarantee judged on the state a run that ended early
        reached — True held, False broken, None cannot be told. The proof covers only finished runs."""
        return [(g, reached(state, trace)) for g, state in self.entries if is_end_state(g.spec)]

    def final(self, trace: Trace) -> ir.Guarantee | None:
        """The first guarantee the finished run breaks, else None."""
        for g, state in self.entries:
            if not state.holds(trace):
                return g
        return None
