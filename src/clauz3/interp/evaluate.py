"""Expression evaluation over the checked-program IR (INT-3, INT-5).

Values are plain Python objects, so every operator is CPython's own; tags (values.py) are removed
from the operands of every operation that makes a new value. One step is charged per evaluated node.
Calls of effects, helpers and solver models are delegated to :mod:`execute`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import islice
from typing import Any, TextIO

from clauz3.interp import builtins as bi
from clauz3.interp import semantics as sem
from clauz3.interp.errors import ProgramError, RunStop, StepBudgetExceeded, _Flow
from clauz3.interp.values import (
    MISSING,
    ColumnRefValue,
    MissingField,
    RecordValue,
    RowValue,
    prov_of,
    untag,
)
from clauz3.language import ir
from clauz3.language.formatspec import INT_BITS

BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": lambda a, b: sem.power(a, b),  # no complex results (semantics.power)
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
}

# Equality, membership and ordering by == only (semantics.py): never CPython's identity shortcut.
COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": sem.values_equal,
    "!=": lambda a, b: not sem.values_equal(a, b),
    "<": lambda a, b: sem.ordering("<", a, b),
    "<=": lambda a, b: sem.ordering("<=", a, b),
    ">": lambda a, b: sem.ordering(">", a, b),
    ">=": lambda a, b: sem.ordering(">=", a, b),
    "in": lambda a, b: sem.contains(b, a),
    "not_in": lambda a, b: not sem.contains(b, a),
    "not in": lambda a, b: not sem.contains(b, a),
    "is": operator.is_,
    "is_not": operator.is_not,
    "is not": operator.is_not,
}


class RowClassRef:
    """A Row class used as a value (``type[T]`` arguments, contract helper arguments)."""

    __slots__ = ("schema",)

    def __init__(self, schema: str) -> None:
        self.schema = schema

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RowClassRef) and other.schema == self.schema

    def __hash__(self) -> int:
        return hash(("RowClassRef", self.schema))

    def __repr__(self) -> str:
        return f"<class {self.schema}>"


def typed_path(kind: str, text: str) -> Any:
    """A ``FilePath`` / ``DirectoryPath`` constant as the real class when the vocabulary has it."""
    try:
        from clauz3.vocabulary import paths  # the vocabulary module; optional while it is being written
    except ImportError:
        return text
    cls = getattr(paths, "FilePath" if kind == "filepath" else "DirectoryPath", None)
    return cls(text) if cls is not None else text


def unpack(value: Any, count: int) -> list[Any]:
    """Destructure like CPython (same ``ValueError`` messages)."""
    items = list(islice(iter(untag(value)), count + 1))
    if len(items) < count:
        raise ValueError(f"not enough values to unpack (expected {count}, got {len(items)})")
    if len(items) > count:
        raise ValueError(f"too many values to unpack (expected {count})")
    return items


def _prov_compare(left: Any, right: Any) -> bool | None:
    """PRED-3: ``value == Schema.col`` (or the tuple form); None when no ColumnRef is involved."""
    if type(right) is ColumnRefValue and type(left) is not ColumnRefValue:
        left, right = right, left
    if type(left) is ColumnRefValue:
        tag = prov_of(right)
        return tag is not None and tag.schema == left.schema and tag.field == left.field
    if isinstance(left, tuple) and isinstance(right, tuple):
        if any(type(x) is ColumnRefValue for x in right) and not any(type(x) is ColumnRefValue for x in left):
            left, right = right, left
        if not left or not all(type(x) is ColumnRefValue for x in left):
            return None
        if len(left) != len(right):
            return False
        tags = [prov_of(v) for v in right]
        if any(t is None for t in tags):
            return False
        origins = {(t.result, t.row) for t in tags if t is not None}
        return len(origins) == 1 and all(
            t is not None and t.schema == c.schema and t.field == c.field for c, t in zip(left, tags, strict=True)
        )
    return None


class Evaluator:
    """Evaluates expressions; subclasses supply statements and calls (execute.Machine)."""

    def __init__(self, program: ir.CheckedProgram, *, stdout: TextIO, step_budget: int | None) -> None:
        self.program = program
        self.stdout = stdout
        self.step_budget = step_budget
        self.steps = 0
        self.file = program.path
        self.unique: dict[int, Any] = {}  # see mutable()
        self._expr_dispatch: dict[type, Callable[[Any, dict[str, Any]], Any]] = {
            ir.Const: self._const,
            ir.Name: self._name,
            ir.ListExpr: self._list,
            ir.TupleExpr: self._tuple,
            ir.SetExpr: self._set,
            ir.DictExpr: self._dict,
            ir.ListComp: self._listcomp,
            ir.BinOp: self._binop,
            ir.UnaryOp: self._unaryop,
            ir.BoolOp: self._boolop,
            ir.Compare: self._compare,
            ir.IfExp: self._ifexp,
            ir.Subscript: self._subscript,
            ir.Slice: self._slice,
            ir.FieldGet: self._fieldget,
            ir.FString: self._fstring,
            ir.EffectCall: self.call_effect,
            ir.HelperCall: self.call_helper,
            ir.BuiltinCall: self._builtin,
            ir.MethodCall: self._method,
            ir.SolverCall: self.call_solver,
            ir.RecordVar: self._recordvar,
            ir.RowNew: self._rownew,
            ir.Formatted: self._formatted,
        }

    # ------------------------------------------------------------------ plumbing

    def step(self, line: int) -> None:
        self.steps += 1
        if self.step_budget is not None and self.steps > self.step_budget:
            raise StepBudgetExceeded(f"step budget of {self.step_budget} exceeded at line {line}")

    def fail(self, exc: BaseException, line: int) -> ProgramError:
        text = str(exc)
        name = type(exc).__name__
        return ProgramError(f"{self.file}:{line}: {name}: {text}" if text else f"{self.file}:{line}: {name}", exc)

    def eval(self, expr: ir.Expr, env: dict[str, Any]) -> Any:
        self.step(expr.line)
        try:
            return self._expr_dispatch[type(expr)](expr, env)
        except (RunStop, _Flow, MissingField):
            raise
        except RecursionError as exc:
            raise self.fail(exc, expr.line) from None
        except Exception as exc:
            raise self.fail(exc, expr.line) from exc

    def truth(self, value: Any) -> bool:
        return bool(untag(value))

    # ------------------------------------------------------------------ calls (execute.Machine)

    def call_effect(self, expr: ir.EffectCall, env: dict[str, Any]) -> Any:
        raise ProgramError(f"{self.file}:{expr.line}: effects cannot be called here")

    def call_helper(self, expr: ir.HelperCall, env: dict[str, Any]) -> Any:
        raise ProgramError(f"{self.file}:{expr.line}: helpers cannot be called here")

    def call_solver(self, expr: ir.SolverCall, env: dict[str, Any]) -> Any:
        raise ProgramError(f"{self.file}:{expr.line}: solver functions cannot be called here")

    # ------------------------------------------------------------------ nodes

    def const_value(self, c: ir.Const) -> Any:
        kind = c.kind
        value = c.value
        if kind == "scalar":
            if isinstance(c.type, ir.TRowClass):
                return RowClassRef(c.type.schema)
            return value
        if kind == "rowclass":
            return RowClassRef(value)
        if kind == "column":
            schema, field = value
            return ColumnRefValue(schema, field)
        if kind in ("filepath", "dirpath"):
            return typed_path(kind, value)
        if kind == "dict":
            return sem.build_dict((self._item(k), self._item(v)) for k, v in value)
        items = [self._item(v) for v in value]
        if kind == "list":
            return items
        if kind == "tuple":
            return tuple(items)
        if kind == "set":
            return sem.OrderedSet(items)
        raise ValueError(f"unknown constant kind {kind!r}")

    def _item(self, v: Any) -> Any:
        return self.const_value(v) if isinstance(v, ir.Const) else v

    def _const(self, c: ir.Const, env: dict[str, Any]) -> Any:
        return self.const_value(c)

    def _name(self, n: ir.Name, env: dict[str, Any]) -> Any:
        try:
            value = env[n.id]
        except KeyError:
            if isinstance(n.type, ir.TRowClass):
                return RowClassRef(n.type.schema)
            raise UnboundLocalError(
                f"cannot access local variable '{n.id}' where it is not associated with a value"
            ) from None
        # The value may now be shared (bound, stored, passed): its next mutation copies it first.
        self.unique.pop(id(value), None)
        return value

    def mutable(self, env: dict[str, Any], name: str) -> Any:
        """The collection named ``name``, about to be mutated: value semantics (DEC-15).

        Binding never copies; mutating does, unless this exact object is one such copy that no
        expression has read since (``unique``, keyed by id: the dict keeps each object alive, so an
        id is never reused while it is a key). A mutation therefore changes only the named variable.
        """
        value = env[name]
        if self.unique.get(id(value)) is not value:
            value = sem.copy_container(value)
            env[name] = value
            self.unique[id(value)] = value
        return value

    def _recordvar(self, r: ir.RecordVar, env: dict[str, Any]) -> Any:
        return env[r.id]

    def _formatted(self, e: ir.Formatted, env: dict[str, Any]) -> Any:
        value = untag(self.eval(e.value, env))
        if type(value) is int and value.bit_length() > INT_BITS:
            # Not CPython's digit limit (the environment may lower it): a fixed rule the prover models.
            raise ValueError(f"an int of more than {INT_BITS} bits cannot be formatted with a spec")
        return format(value, e.spec)

    def _rownew(self, e: ir.RowNew, env: dict[str, Any]) -> Any:
        # Fields in the order written; a field keeps its value's tag, like the prover's RowV.
        fields = {name: self.eval(value, env) for name, value in e.fields}
        short = e.schema.rsplit(".", 1)[-1]
        schema = self.program.rows.get(e.schema)
        for name, t in schema.fields if schema is not None else ():
            # clauz3.Row's own check, at the construction (where the prover puts the obligation).
            if t == ir.INT and type(untag(fields[name])) is not int:
                raise TypeError(f"{short}.{name} must be int, got {type(untag(fields[name])).__name__}")
        return RowValue(e.schema, short, fields)

    def _list(self, e: ir.ListExpr, env: dict[str, Any]) -> Any:
        return [self.eval(x, env) for x in e.elts]

    def _tuple(self, e: ir.TupleExpr, env: dict[str, Any]) -> Any:
        return tuple(self.eval(x, env) for x in e.elts)

    def _set(self, e: ir.SetExpr, env: dict[str, Any]) -> Any:
        return sem.OrderedSet([self.eval(x, env) for x in e.elts])

    def _dict(self, e: ir.DictExpr, env: dict[str, Any]) -> Any:
        out: dict[Any, Any] = {}
        for k, v in zip(e.keys, e.values, strict=True):
            key = self.eval(k, env)
            sem.dict_store(out, key, self.eval(v, env))
        return out

    def bind(self, target: ir.Target, value: Any, env: dict[str, Any]) -> None:
        if isinstance(target, ir.NameTarget):
            env[target.id] = value
            return
        parts = unpack(value, len(target.elts))
        for sub, part in zip(target.elts, parts, strict=True):
            self.bind(sub, part, env)

    def _names_of(self, target: ir.Target) -> list[str]:
        if isinstance(target, ir.NameTarget):
            return [target.id]
        return [n for t in target.elts for n in self._names_of(t)]

    def _listcomp(self, e: ir.ListComp, env: dict[str, Any]) -> Any:
        iterable = list(untag(self.eval(e.iter, env)))  # a snapshot, like a for loop
        # The comprehension variable lives in its own scope (Python 3): restore what it shadowed.
        names = self._names_of(e.target)
        saved = {n: env[n] for n in names if n in env}
        out: list[Any] = []
        try:
            for item in iterable:
                self.bind(e.target, item, env)
                if all(self.truth(self.eval(c, env)) for c in e.conds):
                    out.append(self.eval(e.elt, env))
        finally:
            for n in names:
                env.pop(n, None)
            env.update(saved)
        return out

    def _binop(self, e: ir.BinOp, env: dict[str, Any]) -> Any:
        left = untag(self.eval(e.left, env))
        right = untag(self.eval(e.right, env))
        return BINOPS[e.op](left, right)

    def _unaryop(self, e: ir.UnaryOp, env: dict[str, Any]) -> Any:
        v = untag(self.eval(e.operand, env))
        if e.op == "not":
            return not v
        if e.op == "-":
            return -v
        if e.op == "+":
            return +v
        if e.op == "~":
            return ~v
        raise ValueError(f"unknown unary operator {e.op!r}")

    def _boolop(self, e: ir.BoolOp, env: dict[str, Any]) -> Any:
        value: Any = None
        for sub in e.values:
            value = self.eval(sub, env)
            if e.op == "and" and not self.truth(value):
                return value
            if e.op == "or" and self.truth(value):
                return value
        return value

    def compare_values(self, op: str, left: Any, right: Any) -> bool:
        if op in ("==", "!="):
            prov = _prov_compare(left, right)
            if prov is not None:
                return prov if op == "==" else not prov
        return bool(COMPARE[op](untag(left), untag(right)))

    def _compare(self, e: ir.Compare, env: dict[str, Any]) -> Any:
        left = self.eval(e.left, env)
        result: Any = True
        for op, comp in zip(e.ops, e.comparators, strict=True):
            right = self.eval(comp, env)
            result = self.compare_values(op, left, right)
            if not result:
                return result
            left = right
        return result

    def _ifexp(self, e: ir.IfExp, env: dict[str, Any]) -> Any:
        return self.eval(e.body, env) if self.truth(self.eval(e.test, env)) else self.eval(e.orelse, env)

    def _subscript(self, e: ir.Subscript, env: dict[str, Any]) -> Any:
        container = untag(self.eval(e.value, env))
        index = untag(self.eval(e.index, env))
        value = sem.dict_item(container, index) if isinstance(container, dict) else container[index]
        # Indexing a str makes a new value; indexing a collection returns the stored one.
        return untag(value) if isinstance(container, str) else value

    def _slice(self, e: ir.Slice, env: dict[str, Any]) -> Any:
        container = untag(self.eval(e.value, env))
        lower = None if e.lower is None else untag(self.eval(e.lower, env))
        upper = None if e.upper is None else untag(self.eval(e.upper, env))
        return container[lower:upper]

    def _fieldget(self, e: ir.FieldGet, env: dict[str, Any]) -> Any:
        obj = self.eval(e.value, env)
        if isinstance(obj, RowValue):
            try:
                return obj.get(e.field)
            except KeyError:
                raise AttributeError(f"'{obj.short}' object has no attribute '{e.field}'") from None
        if isinstance(obj, RecordValue):
            value = obj.get(e.field)
            if value is MISSING:
                raise MissingField(e.field)
            return value
        raise AttributeError(f"'{type(untag(obj)).__name__}' object has no attribute '{e.field}'")

    def _fstring(self, e: ir.FString, env: dict[str, Any]) -> Any:
        pieces: list[str] = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(part)
            else:
                pieces.append(sem.text(self.eval(part, env)))
        return "".join(pieces)

    def call_impl(self, key: str, line: int, args: list[Any], kwargs: dict[str, Any]) -> Any:
        impl = bi.IMPLEMENTATIONS.get(key)
        if impl is None:
            raise ProgramError(f"{self.file}:{line}: {key} is not supported by the interpreter")
        if key not in bi.STORING:
            args = [untag(a) for a in args]
            kwargs = {k: untag(v) for k, v in kwargs.items()}
        result = impl(self, args, kwargs)
        return result if key in bi.RETRIEVING else untag(result)

    def _builtin(self, e: ir.BuiltinCall, env: dict[str, Any]) -> Any:
        args = [self.eval(a, env) for a in e.args]
        kwargs = {k: self.eval(v, env) for k, v in e.kwargs}
        return self.call_impl(e.name, e.line, args, kwargs)

    def _method(self, e: ir.MethodCall, env: dict[str, Any]) -> Any:
        key = f"{e.receiver}.{e.method}"
        if key in bi.MUTATING and isinstance(e.obj, ir.Name):
            # Value semantics: the arguments are read first, so a value they share with the
            # receiver is copied away from the mutation (mutable() copies after any read).
            if e.obj.id not in env:
                self.eval(e.obj, env)  # raises UnboundLocalError, as CPython would
            args = [self.eval(a, env) for a in e.args]
            return self.call_impl(key, e.line, [self.mutable(env, e.obj.id), *args], {})
        obj = self.eval(e.obj, env)
        args = [self.eval(a, env) for a in e.args]
        if e.receiver == "tuple" and e.method in ("index", "count"):
            # Tuples share the list models in proofs: by == only, like lists.
            if not isinstance(untag(obj), tuple):
                raise TypeError(f"descriptor '{e.method}' requires a 'tuple' object")
            return (sem.index if e.method == "index" else sem.count)(untag(obj), *args)
        return self.call_impl(key, e.line, [untag(obj), *args], {})
