"""The effect call protocol (01 INT-4, EFF-6).

In order: evaluate and bind arguments (omitted ones get the real function's default, which the
call record holds); check preconditions with the interpreter's evaluator; the monitor's pre-call
check; deep-copy arguments out; call the real function; check the result's exact type and the
postconditions; deep-copy the result in (Row fields gain provenance tags); append the call record.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from clauz3.interp import semantics as sem
from clauz3.interp.errors import (
    EffectUnavailable,
    ProgramError,
    SoundnessViolation,
    TrustedContractViolation,
)
from clauz3.interp.evaluate import RowClassRef
from clauz3.interp.execute import SOUNDNESS_TAIL, Machine, resolve_dotted
from clauz3.interp.monitor import Monitor
from clauz3.interp.trace import CallRecord, Trace, expand_events, fluent_changes
from clauz3.interp.values import RowValue, Tag, render, tag, to_plain
from clauz3.language import ir


def _error_classes() -> tuple[type[Exception], type[Exception]]:
    try:
        from clauz3.base.errors import PostconditionError, PreconditionError
    except ImportError:  # vocabulary not present: no decorator can raise them

        class _Never(Exception):
            pass

        return _Never, _Never
    return PreconditionError, PostconditionError


class RowClasses:
    """Maps row schema keys to real ``clauz3.Row`` classes (entry-file rows are built from the IR)."""

    def __init__(self, program: ir.CheckedProgram) -> None:
        self.program = program
        self._cache: dict[str, type | None] = {}

    def get(self, schema: str) -> type | None:
        if schema not in self._cache:
            self._cache[schema] = self._find(schema)
        return self._cache[schema]

    def _find(self, schema: str) -> type | None:
        if not schema.startswith("__entry__."):
            try:
                cls = resolve_dotted(schema)
                return cls if isinstance(cls, type) else None
            except (ImportError, AttributeError):
                return None
        decl = self.program.rows.get(schema)
        if decl is None:
            return None
        from clauz3.vocabulary.rows import Row

        names = {"str": str, "int": int, "bool": bool}
        annotations = {
            name: names[t.name] for name, t in decl.fields if isinstance(t, ir.TScalar) and t.name in names
        }
        # Built from the checker's declaration: agent source is never executed (INT-2).
        return type(decl.short, (Row,), {"__annotations__": annotations, "__module__": "__entry__"})

    def matches(self, value: Any, schema: str) -> bool:
        cls = self.get(schema)
        if cls is not None:
            return type(value) is cls
        return f"{type(value).__module__}.{type(value).__qualname__}" == schema


def _plain_str(value: Any) -> bool:
    # Typed paths (clauz3.paths) are str subclasses a trusted function may return for `-> str`.
    return type(value) is str or (isinstance(value, str) and type(value).__module__.startswith("clauz3"))


def conforms(value: Any, t: ir.Type | None, rows: RowClasses) -> bool:
    """Exact run-time type check of a trusted result against its IR type (bool is not int here)."""
    if isinstance(t, ir.TScalar):
        if t.name == "None":
            return value is None
        if t.name == "str":
            return _plain_str(value)
        return type(value) is {"bool": bool, "int": int, "float": float}.get(t.name)
    if isinstance(t, ir.TOptional):
        return value is None or conforms(value, t.inner, rows)
    if isinstance(t, ir.TList):
        return type(value) is list and all(conforms(v, t.elem, rows) for v in value)
    if isinstance(t, ir.TSet):
        return type(value) in (set, frozenset) and all(conforms(v, t.elem, rows) for v in value)
    if isinstance(t, ir.TTuple):
        if type(value) is not tuple:
            return False
        if t.elems is not None:
            return len(value) == len(t.elems) and all(
                conforms(v, e, rows) for v, e in zip(value, t.elems, strict=True)
            )
        return all(conforms(v, t.elem, rows) for v in value)
    if isinstance(t, ir.TDict):
        return type(value) is dict and all(
            conforms(k, t.key, rows) and conforms(v, t.value, rows) for k, v in value.items()
        )
    if isinstance(t, ir.TRow):
        return rows.matches(value, t.schema)
    if isinstance(t, ir.TObject):
        return value is None or type(value) in (bool, int, float) or _plain_str(value)
    return False


def type_text(t: ir.Type | None) -> str:
    if isinstance(t, ir.TScalar):
        return t.name
    if isinstance(t, ir.TOptional):
        return f"{type_text(t.inner)} | None"
    if isinstance(t, ir.TList):
        return f"list[{type_text(t.elem)}]"
    if isinstance(t, ir.TSet):
        return f"set[{type_text(t.elem)}]"
    if isinstance(t, ir.TTuple):
        if t.elems is not None:
            return "tuple[" + ", ".join(type_text(e) for e in t.elems) + "]"
        return f"tuple[{type_text(t.elem)}, ...]"
    if isinstance(t, ir.TDict):
        return f"dict[{type_text(t.key)}, {type_text(t.value)}]"
    if isinstance(t, (ir.TRow, ir.TRowClass)):
        return t.schema.rsplit(".", 1)[-1]
    return "object"


class Gateway:
    """Performs effect calls for one run; owns the trace."""

    def __init__(
        self,
        program: ir.CheckedProgram,
        layer_effects: Mapping[str, Callable[..., Any]],
        monitor: Monitor,
        trace: Trace,
    ) -> None:
        self.program = program
        self.layer_effects = layer_effects
        self.monitor = monitor
        self.trace = trace
        self.rows = RowClasses(program)
        self._signatures: dict[str, inspect.Signature] = {}
        self.pre_error, self.post_error = _error_classes()

    # ------------------------------------------------------------------ conversions

    def outgoing(self, value: Any) -> Any:
        """Deep copy for trusted code: tags dropped, Row class references made real classes."""
        if isinstance(value, RowClassRef):
            cls = self.rows.get(value.schema)
            if cls is None:
                raise ProgramError(f"row class {value.schema} is not available at run time")
            return cls
        return copy.deepcopy(to_plain(self._built_rows(value)))

    def _built_rows(self, value: Any) -> Any:
        """Rows the program built (``Item(name=…)``) become instances of the layer's Row class."""
        if isinstance(value, RowValue) and value.original is None:
            cls = self.rows.get(value.schema)
            if cls is None:
                raise ProgramError(f"row class {value.schema} is not available at run time")
            plain = {k: copy.deepcopy(to_plain(v)) for k, v in value.fields.items()}
            return RowValue(value.schema, value.short, value.fields, original=cls(**plain))
        if isinstance(value, list):
            return [self._built_rows(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self._built_rows(v) for v in value)
        return value

    def incoming(self, value: Any, result_id: int) -> Any:
        """Deep copy of a result into program values; Row fields are tagged (MON-1)."""
        if isinstance(value, list):
            return [self._row_in(v, result_id, i) if self._is_row(v) else self.incoming(v, result_id)
                    for i, v in enumerate(value)]
        if self._is_row(value):
            return self._row_in(value, result_id, 0)
        if isinstance(value, str) and type(value) is not str:
            return str.__str__(value)
        return sem.from_plain(copy.deepcopy(value))  # sets become insertion-ordered program sets

    def _is_row(self, value: Any) -> bool:
        return hasattr(type(value), "__row_fields__")

    def _row_in(self, row: Any, result_id: int, index: int) -> RowValue:
        cls = type(row)
        schema = next((name for name in self.program.rows if self.rows.matches(row, name)), None)
        schema = schema or f"{cls.__module__}.{cls.__qualname__}"
        decl = self.program.rows.get(schema)
        names = [f for f, _ in decl.fields] if decl is not None else list(cls.__row_fields__)
        fields = {n: tag(getattr(row, n), Tag(schema, n, result_id, index)) for n in names}
        return RowValue(schema, cls.__name__, fields, original=row)

    # ------------------------------------------------------------------ the protocol

    def signature(self, name: str, fn: Callable[..., Any]) -> inspect.Signature:
        if name not in self._signatures:
            self._signatures[name] = inspect.signature(fn)
        return self._signatures[name]

    def call(self, machine: Machine, expr: ir.EffectCall, env: dict[str, Any]) -> Any:
        effect = self.program.effects[expr.effect]
        fn = self.layer_effects.get(expr.effect)
        if fn is None:
            raise EffectUnavailable(f"{machine.file}:{expr.line}: effect {expr.effect} is not in the loaded layer")
        passed = {param: machine.eval(e, env) for param, e in expr.args}
        kinds = {p.name: p.kind for p in effect.params}
        sig = self.signature(expr.effect, fn)

        def split(values: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
            pos = [values[p.name] for p in effect.params if p.kind == "positional_only" and p.name in values]
            kw = {k: v for k, v in values.items() if kinds.get(k) != "positional_only"}
            return pos, kw

        pos, kw = split(passed)
        try:
            bound = sig.bind(*pos, **kw)
        except TypeError as exc:
            raise ProgramError(f"{machine.file}:{expr.line}: TypeError: {effect.short}(): {exc}") from None
        bound.apply_defaults()
        arguments: dict[str, Any] = {}
        for name, value in bound.arguments.items():
            arguments[name] = value if name in passed else copy.deepcopy(value)

        record = CallRecord(
            index=len(self.trace.records) + 1, effect=expr.effect, short=effect.short, arguments=arguments,
            line=expr.line, site=expr.site, file=machine.file,
        )
        for cond in effect.requires:
            if not machine.holds(cond.expr, dict(arguments)):
                raise SoundnessViolation(
                    f"clauz3 stopped this run: {record.describe()} at line {expr.line} would break the proved "
                    f"precondition {cond.source}. {SOUNDNESS_TAIL}",
                    "precondition", detail=cond.source,
                )
        events = expand_events(self.program, effect, arguments)
        changes = fluent_changes(effect, arguments)
        record.events = events
        broken = self.monitor.precheck(record, events)
        if broken is not None:
            raise SoundnessViolation(
                f"clauz3 stopped this run: {record.describe()} at line {expr.line} would break the proved "
                f"guarantee {broken.bound_call}{f' ({self.monitor.why})' if self.monitor.why else ''}. "
                f"{SOUNDNESS_TAIL}",
                "guarantee", guarantee=broken,
            )

        out_pos, out_kw = split({k: self.outgoing(v) for k, v in passed.items()})
        try:
            raw = fn(*out_pos, **out_kw)
        except self.pre_error as exc:
            raise SoundnessViolation(
                f"clauz3 stopped this run: {record.describe()} at line {expr.line} was refused by its own "
                f"precondition check ({exc}) although the proof said it holds. {SOUNDNESS_TAIL}",
                "precondition", detail=str(exc),
            ) from None
        except self.post_error as exc:
            self._commit(record, None, changes, events, error=str(exc))
            raise TrustedContractViolation(
                f"{machine.file}:{expr.line}: trusted function {effect.short} broke its postcondition: {exc}; "
                "the effect happened, nothing further ran"
            ) from None
        except (Exception, SystemExit) as exc:
            self._commit(record, None, changes, events, error=f"{type(exc).__name__}: {exc}")
            text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise ProgramError(f"{machine.file}:{expr.line}: trusted function {effect.short} raised {text}", exc) from None

        expected = expr.type if expr.type is not None else effect.returns
        if not conforms(raw, expected, self.rows):
            self._commit(record, None, changes, events, error="wrong result type")
            raise TrustedContractViolation(
                f"{machine.file}:{expr.line}: trusted function {effect.short} returned {render(to_plain(raw))} "
                f"({type(raw).__name__}) but its annotation is {type_text(expected)}; the effect happened, "
                "nothing further ran"
            )
        result = self.incoming(raw, record.index)
        for cond in effect.ensures:
            if not machine.holds(cond.expr, {**arguments, "result": result}):
                self._commit(record, result, changes, events, error="postcondition failed")
                raise TrustedContractViolation(
                    f"{machine.file}:{expr.line}: trusted function {effect.short} returned {render(result)} which "
                    f"breaks its postcondition {cond.source}; the effect happened, nothing further ran"
                )
        self._commit(record, result, changes, events)
        return result

    def _commit(
        self, record: CallRecord, result: Any, changes: list[tuple[str, Any, Any]], events: list[Any],
        error: str | None = None,
    ) -> None:
        record.result = result
        record.error = error
        self.trace.append(record, changes)
        self.monitor.commit(record, events)
