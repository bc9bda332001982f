"""IR statements (part of :mod:`clauz3.language.ir`, which re-exports them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from clauz3.language.ir_expressions import Expr, Target
from clauz3.language.ir_types import Type

# ----------------------------------------------------------------------------------- statements


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
