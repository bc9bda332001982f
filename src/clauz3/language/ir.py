"""The checked program: one typed, resolved IR that the prover and the interpreter both consume.

The checker (``clauz3.language.checker``) is the only component that reads agent source; it
outputs a :class:`CheckedProgram`. Everything here is immutable, hashable where it matters, and
serialisable to canonical JSON (:func:`canonical`), whose SHA-256 is ``ir_sha256`` (01 INT-1).

Conventions
-----------
* Locations are 1-based ``line`` / ``col`` of the construct in *its own* file (``file`` on the
  enclosing :class:`Function` / :class:`Effect`), so diagnostics and counterexamples can name it.
* Module-level literal constants are folded into :class:`Const` by the checker; the IR only has
  local names.
* Every call is resolved: :class:`EffectCall` (trusted effect), :class:`HelperCall` (an inlined
  function of the entry file, a trusted non-effect helper, or a path predicate of
  ``clauz3._path_safety``), :class:`BuiltinCall`, :class:`MethodCall`, :class:`SolverCall`.
* Conditions of effects and trusted helpers (``requires``/``ensures``) and the predicates of
  contract specs are compiled to the same :data:`Expr` nodes over :class:`Name` parameters, so
  the prover and the run-time monitor evaluate them with the same machinery as program code.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Union

# ---------------------------------------------------------------------------------------- types


@dataclass(frozen=True)
class TScalar:
    """``bool``, ``int``, ``float``, ``str`` or ``None``."""

    name: str


@dataclass(frozen=True)
class TOptional:
    """``T | None`` (narrowed by ``is None`` tests)."""

    inner: Type


@dataclass(frozen=True)
class TList:
    elem: Type


@dataclass(frozen=True)
class TSet:
    elem: Type


@dataclass(frozen=True)
class TTuple:
    """Fixed tuple ``tuple[T1, T2]`` (``elems``) or homogeneous ``tuple[T, ...]`` (``elem``)."""

    elems: tuple[Type, ...] | None = None
    elem: Type | None = None


@dataclass(frozen=True)
class TDict:
    key: Type
    value: Type


@dataclass(frozen=True)
class TRow:
    """Instance of a ``clauz3.Row`` subclass, named by its key in ``CheckedProgram.rows``."""

    schema: str


@dataclass(frozen=True)
class TRowClass:
    """The Row class itself (passed to a ``type[T]`` parameter or to a contract helper)."""

    schema: str


@dataclass(frozen=True)
class TObject:
    """Element type of literals mixing scalar types: equality, ``in`` and passing only."""


Type = Union[TScalar, TOptional, TList, TSet, TTuple, TDict, TRow, TRowClass, TObject]

BOOL = TScalar("bool")
INT = TScalar("int")
FLOAT = TScalar("float")
STR = TScalar("str")
NONE = TScalar("None")
OBJECT = TObject()

# ---------------------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Const:
    """A literal value: ``None``, bool, int, float, str, or tuples of those for collections.

    ``kind`` tells how to rebuild a collection constant: ``"scalar"``, ``"list"``, ``"tuple"``,
    ``"set"`` (value is a tuple sorted by ``repr`` for determinism), ``"dict"`` (value is a
    tuple of ``(key, value)`` pairs in insertion order), ``"filepath"`` / ``"dirpath"`` (a typed
    path; value is its canonical str), ``"column"`` (a ``ColumnRef``; value is
    ``(schema, field)``). Nested collection values are nested ``Const`` objects.
    """

    value: Any
    type: Type
    line: int
    col: int
    kind: str = "scalar"


@dataclass(frozen=True)
class Name:
    id: str
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class ListExpr:
    elts: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class TupleExpr:
    elts: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class SetExpr:
    elts: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class DictExpr:
    keys: tuple[Expr, ...]
    values: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class ListComp:
    """``[elt for target in iter if c1 if c2]`` — iter is always unrollable (LOOP-1)."""

    elt: Expr
    target: Target
    iter: Expr
    conds: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class BinOp:
    """``op`` is the Python operator symbol: ``+ - * / // % ** & | ^ << >>``."""

    op: str
    left: Expr
    right: Expr
    type: Type
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class UnaryOp:
    """``op`` is ``not``, ``-``, ``+`` or ``~``."""

    op: str
    operand: Expr
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class BoolOp:
    """``and`` / ``or`` with Python operand selection (result is one of the operands)."""

    op: str
    values: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class Compare:
    """Chained comparison; ops among ``== != < <= > >= in not_in is is_not`` (``is`` only with None)."""

    left: Expr
    ops: tuple[str, ...]
    comparators: tuple[Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class IfExp:
    test: Expr
    body: Expr
    orelse: Expr
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class Subscript:
    """``value[index]`` on str, list, tuple or dict (IndexError / KeyError obligation)."""

    value: Expr
    index: Expr
    type: Type
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class Slice:
    """``value[lower:upper]`` (step absent or 1)."""

    value: Expr
    lower: Expr | None
    upper: Expr | None
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class FieldGet:
    """``row.field`` on a Row instance, or ``e.field`` on a call record/event in predicates."""

    value: Expr
    field: str
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class FString:
    """f-string; ``parts`` are str pieces or expressions of type str, int or bool."""

    parts: tuple[str | Expr, ...]
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class EffectCall:
    """A call of a trusted effect, arguments bound to parameters (EFF-5, EFF-6).

    ``args`` holds ``(param, expr)`` for every parameter the call passes, in source order (the
    order they are evaluated);
    ``omitted`` the parameters left to their default (unconstrained in proofs). ``site`` is a
    program-unique index of the call site (source order), used for counterexamples and results.
    ``row_class`` is set when the effect returns ``list[T]`` for a ``type[T]`` parameter.
    """

    effect: str
    args: tuple[tuple[str, Expr], ...]
    omitted: tuple[str, ...]
    type: Type
    line: int
    col: int
    site: int
    source: str = ""
    file: str = ""


@dataclass(frozen=True)
class HelperCall:
    """Inlined call of ``CheckedProgram.functions[function]``; args in parameter order, defaults filled.

    ``order``: indices into ``args`` in the order the call writes them (keywords may come in any
    order), which is the order they are evaluated; ``()`` means parameter order.
    """

    function: str
    args: tuple[Expr, ...]
    type: Type
    line: int
    col: int
    source: str = ""
    order: tuple[int, ...] = ()


@dataclass(frozen=True)
class BuiltinCall:
    """A builtin from 01 §3.4 (``len``, ``int``, ``min``…) or ``math.<fn>``; ``name`` is e.g. ``"len"`` or ``"math.floor"``."""

    name: str
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...]
    type: Type
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class MethodCall:
    """``obj.method(args)``; ``receiver`` is ``"str"``, ``"list"``, ``"set"`` or ``"dict"``."""

    receiver: str
    method: str
    obj: Expr
    args: tuple[Expr, ...]
    type: Type
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class SolverCall:
    """Call of a function modelled with ``clauz3.solver``: proofs inline ``model``, runs call ``real``."""

    real: str
    model: str
    args: tuple[Expr, ...]
    type: Type
    line: int
    col: int
    order: tuple[int, ...] = ()  # evaluation order of ``args``, as HelperCall.order


@dataclass(frozen=True)
class Formatted:
    """An f-string field with a format spec: ``format(value, spec)`` (language/formatspec.py)."""

    value: Expr
    spec: str
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class RowNew:
    """``Schema(field=value, …)``: a row of a declared schema built by the program, every field given."""

    schema: str
    fields: tuple[tuple[str, Expr], ...]  # in the order written (the evaluation order)
    type: Type
    line: int
    col: int


@dataclass(frozen=True)
class RecordVar:
    """The single parameter of a contract predicate (``lambda e: …``): a call record or event."""

    id: str
    line: int
    col: int
    type: Type = OBJECT


Expr = Union[
    Const, Name, ListExpr, TupleExpr, SetExpr, DictExpr, ListComp, BinOp, UnaryOp, BoolOp, Compare,
    IfExp, Subscript, Slice, FieldGet, FString, EffectCall, HelperCall, BuiltinCall, MethodCall,
    SolverCall, RecordVar, RowNew, Formatted,
]

# ----------------------------------------------------------------------------------- statements


@dataclass(frozen=True)
class NameTarget:
    id: str
    type: Type


@dataclass(frozen=True)
class TupleTarget:
    elts: tuple[Target, ...]


Target = Union[NameTarget, TupleTarget]


@dataclass(frozen=True)
class Assign:
    target: Target
    value: Expr
    line: int
    col: int


@dataclass(frozen=True)
class AugAssign:
    name: str
    op: str
    value: Expr
    type: Type
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class SetItem:
    """``name[index] = value`` on a uniquely owned local list or dict (MUT-1)."""

    name: str
    index: Expr
    value: Expr
    line: int
    col: int


@dataclass(frozen=True)
class ExprStmt:
    value: Expr
    line: int
    col: int


@dataclass(frozen=True)
class Return:
    value: Expr | None
    line: int
    col: int


@dataclass(frozen=True)
class If:
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class For:
    """``mode`` is ``"unrolled"`` (LOOP-1) or ``"symbolic"`` (LOOP-2, iter is a trusted list)."""

    target: Target
    iter: Expr
    body: tuple[Stmt, ...]
    mode: str
    line: int
    col: int


@dataclass(frozen=True)
class Break:
    line: int
    col: int


@dataclass(frozen=True)
class Continue:
    line: int
    col: int


@dataclass(frozen=True)
class Assert:
    test: Expr
    msg: Expr | None
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class Raise:
    """``raise E(args)`` / ``raise E`` of a built-in exception class; must be unreachable."""

    exception: str
    args: tuple[Expr, ...]
    line: int
    col: int
    source: str = ""


@dataclass(frozen=True)
class Pass:
    line: int
    col: int


Stmt = Union[Assign, AugAssign, SetItem, ExprStmt, Return, If, For, Break, Continue, Assert, Raise, Pass]

# ------------------------------------------------------------------------------------ functions


@dataclass(frozen=True)
class Param:
    """A parameter; ``kind`` is ``positional_only``, ``positional_or_keyword`` or ``keyword_only``."""

    name: str
    type: Type
    kind: str = "positional_or_keyword"
    default: Const | None = None


@dataclass(frozen=True)
class Condition:
    """A compiled ``requires`` / ``ensures`` condition: ``expr`` over the parameters (and ``result``)."""

    expr: Expr
    source: str
    message: str
    exception: str
    file: str
    line: int


@dataclass(frozen=True)
class Function:
    """An inlinable function: the target, an entry-file helper, a trusted helper or a path predicate.

    ``origin`` is ``entry``, ``trusted`` or ``path_predicate``; ``returns_value`` is False when
    no path returns a value (HLP-2).
    """

    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    returns: Type
    returns_value: bool
    origin: str
    module: str
    file: str
    line: int
    requires: tuple[Condition, ...] = ()
    ensures: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class PerformedEvent:
    """One event an effect performs: ``event`` class key, ``args`` the effect parameters (EVT-2)."""

    event: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class FluentUpdate:
    """``F.set(k, v)``: key and value are each ``("param", name)`` or ``("const", value)``."""

    fluent: str
    key: tuple[str, Any]
    value: tuple[str, Any]


@dataclass(frozen=True)
class Effect:
    """A trusted effect as proofs see it (EFF-4, EFF-5): never the body."""

    name: str  # qualified: "tools.email.trusted.effects.send_email"
    short: str  # "send_email"
    params: tuple[Param, ...]
    returns: Type
    requires: tuple[Condition, ...]
    ensures: tuple[Condition, ...]
    mock: bool
    performs: tuple[PerformedEvent, ...]
    fluent_updates: tuple[FluentUpdate, ...]
    file: str
    line: int
    row_param: str | None = None  # parameter annotated type[T] deciding the row class of the result


@dataclass(frozen=True)
class RowSchema:
    name: str  # key, e.g. "tools.db.trusted.schemas.UserRow" or "__entry__.UserRow"
    short: str
    fields: tuple[tuple[str, Type], ...]


@dataclass(frozen=True)
class EventClass:
    name: str  # qualified class name
    short: str
    fields: tuple[tuple[str, Type], ...]
    bases: tuple[str, ...]  # all Event ancestors (qualified), nearest first


@dataclass(frozen=True)
class Fluent:
    name: str
    key: Type
    value: Type
    initial: Any


# ----------------------------------------------------------------------------------------- specs


@dataclass(frozen=True)
class Pred:
    """A compiled relation lambda (PRED-1): ``body`` over ``RecordVar(param)``; ``source`` as written."""

    param: str
    body: Expr
    source: str
    file: str
    line: int


@dataclass(frozen=True)
class Relation:
    """Calls of ``targets`` (effect names; empty = every effect) or events of class ``event`` and subclasses."""

    targets: tuple[str, ...]
    event: str | None
    filters: tuple[Pred, ...]
    fields: tuple[str, ...]  # readable fields (common parameters, or event fields)


@dataclass(frozen=True)
class AllSpec:
    relation: Relation
    pred: Pred


@dataclass(frozen=True)
class EmptySpec:
    relation: Relation


@dataclass(frozen=True)
class DistinctSpec:
    relation: Relation
    key: Pred


@dataclass(frozen=True)
class AggregateSpec:
    """``relation.count() <op> bound`` (``value`` None) or ``relation.sum(value) <op> bound``."""

    relation: Relation
    value: Pred | None
    op: str
    bound: int


@dataclass(frozen=True)
class SharesValueSpec:
    left: Relation
    right: Relation
    key: Pred


@dataclass(frozen=True)
class FluentFinalSpec:
    """``F.final[key] == value`` (``op`` ``==`` / ``!=``) or ``F.final.all(pred)`` (``pred`` set)."""

    fluent: str
    op: str
    key: Any = None
    value: Any = None
    pred: Pred | None = None


@dataclass(frozen=True)
class ConjunctionSpec:
    specs: tuple[Spec, ...]


@dataclass(frozen=True)
class TrueSpec:
    """``no_guarantees()``: always holds."""


Spec = Union[AllSpec, EmptySpec, DistinctSpec, AggregateSpec, SharesValueSpec, FluentFinalSpec, ConjunctionSpec,
             TrueSpec]


@dataclass(frozen=True)
class Guarantee:
    """A guarantee (or required policy contract) with its compiled spec.

    ``expression`` is the decorator argument as written (for ``required`` the bound call);
    ``bound_call`` is CON-6's ``email.at_most(count=1)``; ``helper`` the registered qualname;
    ``args`` the decoded literal arguments as ``(param, value)`` (JSON-able).
    """

    kind: str  # "guarantee" | "required"
    expression: str
    bound_call: str
    helper: str
    library: str
    args: tuple[tuple[str, Any], ...]
    description: str | None
    spec: Spec
    cls: str  # "safety" | "completion"
    line: int
    col: int


@dataclass(frozen=True)
class CoverageDomain:
    domain: str
    required: tuple[str, ...]
    recommended: tuple[str, ...]
    label: str | None = None


@dataclass(frozen=True)
class Diagnostic:
    """A refusal (``severity`` error) or warning, printed as DIAG-1."""

    severity: str
    file: str
    line: int
    col: int
    code: str
    message: str
    hint: str | None = None

    def render(self) -> str:
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{self.severity}: {self.file}:{self.line}:{self.col}: {self.code}: {self.message}{hint}"


@dataclass(frozen=True)
class CheckedProgram:
    """Output of the checker; deterministic in (source bytes, layer fingerprint, target, allow-list, engine)."""

    path: str
    source_sha256: str
    target: str
    functions: dict[str, Function]  # includes the target under its own name
    effects: dict[str, Effect]
    rows: dict[str, RowSchema]
    events: dict[str, EventClass]
    fluents: dict[str, Fluent]
    guarantees: tuple[Guarantee, ...]  # program guarantees, then required policy contracts
    coverage: tuple[CoverageDomain, ...]
    used_domains: tuple[str, ...]
    layer_sha256: str
    warnings: tuple[Diagnostic, ...] = field(default=())


# ------------------------------------------------------------------------------- serialisation


def to_jsonable(value: Any) -> Any:
    """Canonical JSON-able form of an IR value: dataclasses become ``{"_": ClassName, fields…}``."""
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"_": type(value).__name__}
        for f in fields(value):
            out[f.name] = to_jsonable(getattr(value, f.name))
        return out
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, float):
        return {"_": "float", "repr": repr(value)}
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 2_000:
        from clauz3.language.digits import int_text

        return {"_": "int", "digits": int_text(value)}  # json would need CPython's int→str, env-limited
    if isinstance(value, (frozenset, set)):
        return sorted((to_jsonable(v) for v in value), key=repr)
    return value


def canonical(value: Any) -> bytes:
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def ir_sha256(program: CheckedProgram) -> str:
    return hashlib.sha256(canonical(program)).hexdigest()
