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
  ``clauz3.vocabulary.path_safety``), :class:`BuiltinCall`, :class:`MethodCall`, :class:`SolverCall`.
* Conditions of effects and trusted helpers (``requires``/``ensures``) and the predicates of
  contract specs are compiled to the same :data:`Expr` nodes over :class:`Name` parameters, so
  the prover and the run-time monitor evaluate them with the same machinery as program code.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Union

from clauz3.language.digits import int_text

# The IR's node classes live in three modules by kind; this module re-exports them so every consumer
# keeps writing ``ir.X`` (and class names, not modules, are what ``canonical`` hashes).
from clauz3.language.ir_expressions import (
    BinOp,
    BoolOp,
    BuiltinCall,
    Compare,
    Const,
    DictExpr,
    EffectCall,
    Expr,
    FieldGet,
    Formatted,
    FString,
    HelperCall,
    IfExp,
    ListComp,
    ListExpr,
    MethodCall,
    Name,
    NameTarget,
    RecordVar,
    RowNew,
    SetExpr,
    Slice,
    SolverCall,
    Subscript,
    Target,
    TupleExpr,
    TupleTarget,
    UnaryOp,
)
from clauz3.language.ir_statements import (
    Assert,
    Assign,
    AugAssign,
    Break,
    Continue,
    ExprStmt,
    For,
    If,
    Pass,
    Raise,
    Return,
    SetItem,
    Stmt,
)
from clauz3.language.ir_types import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    OBJECT,
    STR,
    TDict,
    TList,
    TObject,
    TOptional,
    TRow,
    TRowClass,
    TScalar,
    TSet,
    TTuple,
    Type,
)

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
    # Issue 20: protected parameters (name, kind) and what a read of this effect is called; the card
    # only, never a verdict.
    protected: tuple[tuple[str, str], ...] = ()
    reads_data: str | None = None


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
class NoSensitiveSpec:
    """No call of ``relation`` passes, in its text field ``field``, a value the layer holds as sensitive.

    ``digests`` (``clauz3.language.sensitive``) stand for the values: the IR never holds them.
    """

    relation: Relation
    field: str
    digests: tuple[tuple[int, tuple[str, ...]], ...]
    what: str  # the layer's words for the values ("your passport and card numbers")


@dataclass(frozen=True)
class FlowSpec:
    """Issue 20: ``flows.never`` / ``flows.only``. ``sources`` and the sinks' effects are qualified names.

    A value's labels are the effects whose results it derives from (``clauz3.language.flowlabels``);
    ``never``: no sink carries a label in ``sources``; ``only``: every label a sink carries is in ``sources``.
    """

    mode: str  # "never" | "only"
    sources: tuple[str, ...]
    sinks: tuple[tuple[str, str], ...]  # (effect, parameter)


@dataclass(frozen=True)
class TrueSpec:
    """``no_guarantees()``: always holds."""


Spec = Union[AllSpec, EmptySpec, DistinctSpec, AggregateSpec, SharesValueSpec, FluentFinalSpec, ConjunctionSpec,
             NoSensitiveSpec, FlowSpec, TrueSpec]


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
        return {"_": "int", "digits": int_text(value)}  # json would need CPython's int→str, env-limited
    if isinstance(value, (frozenset, set)):
        return sorted((to_jsonable(v) for v in value), key=repr)
    return value


def canonical(value: Any) -> bytes:
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def ir_sha256(program: CheckedProgram) -> str:
    return hashlib.sha256(canonical(program)).hexdigest()


__all__ = [
    "BOOL",
    "FLOAT",
    "INT",
    "NONE",
    "OBJECT",
    "STR",
    "AggregateSpec",
    "AllSpec",
    "Assert",
    "Assign",
    "AugAssign",
    "BinOp",
    "BoolOp",
    "Break",
    "BuiltinCall",
    "CheckedProgram",
    "Compare",
    "Condition",
    "ConjunctionSpec",
    "Const",
    "Continue",
    "CoverageDomain",
    "Diagnostic",
    "DictExpr",
    "DistinctSpec",
    "Effect",
    "EffectCall",
    "EmptySpec",
    "EventClass",
    "Expr",
    "ExprStmt",
    "FString",
    "FieldGet",
    "FlowSpec",
    "Fluent",
    "FluentFinalSpec",
    "FluentUpdate",
    "For",
    "Formatted",
    "Function",
    "Guarantee",
    "HelperCall",
    "If",
    "IfExp",
    "ListComp",
    "ListExpr",
    "MethodCall",
    "Name",
    "NameTarget",
    "NoSensitiveSpec",
    "Param",
    "Pass",
    "PerformedEvent",
    "Pred",
    "Raise",
    "RecordVar",
    "Relation",
    "Return",
    "RowNew",
    "RowSchema",
    "SetExpr",
    "SetItem",
    "SharesValueSpec",
    "Slice",
    "SolverCall",
    "Spec",
    "Stmt",
    "Subscript",
    "TDict",
    "TList",
    "TObject",
    "TOptional",
    "TRow",
    "TRowClass",
    "TScalar",
    "TSet",
    "TTuple",
    "Target",
    "TrueSpec",
    "TupleExpr",
    "TupleTarget",
    "Type",
    "UnaryOp",
    "canonical",
    "ir_sha256",
    "to_jsonable",
]
