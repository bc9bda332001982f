"""IR expressions and binding targets (part of :mod:`clauz3.language.ir`, which re-exports them).

Every call is resolved here: effect, helper, builtin, method or solver call (see ``ir``'s conventions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from clauz3.language.ir_types import OBJECT, Type

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

# -------------------------------------------------------------------------------- binding targets


@dataclass(frozen=True)
class NameTarget:
    id: str
    type: Type


@dataclass(frozen=True)
class TupleTarget:
    elts: tuple[Target, ...]


Target = Union[NameTarget, TupleTarget]
