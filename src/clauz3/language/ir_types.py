"""IR types (part of :mod:`clauz3.language.ir`, which re-exports them): what a value of the subset can be."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

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


@dataclass(frozen=True)
class TError:
    """Type of an expression already refused: nodes carry it only while checking, since a refused program
    never leaves the checker (``clauz3.language.types.ERR`` is the one instance)."""


Type = Union[TScalar, TOptional, TList, TSet, TTuple, TDict, TRow, TRowClass, TObject, TError]

BOOL = TScalar("bool")
INT = TScalar("int")
FLOAT = TScalar("float")
STR = TScalar("str")
NONE = TScalar("None")
OBJECT = TObject()
