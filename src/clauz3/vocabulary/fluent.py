"""Fluents: keyed state cells that effects update (01 FLU-1, FLU-2).

``DOORS = fluent("doors", value=bool, initial=True)`` declares a cell; an effect updates it with
``@clauz3.fluent.effect(lambda door: DOORS.set(door, False))``; contracts read the final state
with ``DOORS.final["front"] == True`` or ``DOORS.final.all(lambda item: item.value)``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from clauz3.vocabulary.decorators import attach_lambda
from clauz3.vocabulary.meta import ContractSpec

__all__ = ["FLUENTS", "FluentDecl", "FluentFinalAllSpec", "FluentFinalSpec", "FluentSet", "effect", "fluent"]

F = TypeVar("F", bound=Callable[..., Any])

_TYPES = (str, int, bool)


def _is(value: Any, tp: type) -> bool:
    return isinstance(value, str) if tp is str else type(value) is tp


class FluentDecl:
    """A declared fluent (``clauz3.fluent.FLUENTS`` value)."""

    __slots__ = ("file", "initial", "key", "line", "module", "name", "value")

    def __init__(self, name: str, key: type, value: type, initial: Any, module: str, file: str, line: int) -> None:
        self.name = name
        self.key = key
        self.value = value
        self.initial = initial
        self.module = module
        self.file = file
        self.line = line

    def set(self, key: Any, value: Any) -> FluentSet:
        """An update record; meaningful only inside a ``clauz3.fluent.effect`` lambda."""
        return FluentSet(self, key, value)

    @property
    def final(self) -> _Final:
        return _Final(self)

    def __repr__(self) -> str:
        return f"fluent({self.name!r}, key={self.key.__name__}, value={self.value.__name__}, initial={self.initial!r})"


class FluentSet:
    __slots__ = ("fluent", "key", "value")

    def __init__(self, fluent: FluentDecl, key: Any, value: Any) -> None:
        self.fluent = fluent
        self.key = key
        self.value = value

    def __repr__(self) -> str:
        return f"{self.fluent.name}.set({self.key!r}, {self.value!r})"


class FluentFinalSpec(ContractSpec):
    """``F.final[key] == value`` (``op`` ``==``) or ``!=``."""

    __slots__ = ("fluent", "key", "op", "value")

    def __init__(self, fluent: FluentDecl, op: str, key: Any, value: Any) -> None:
        self.fluent = fluent
        self.op = op
        self.key = key
        self.value = value

    def __bool__(self) -> bool:
        raise TypeError("a spec has no truth value")

    def __repr__(self) -> str:
        return f"{self.fluent.name}.final[{self.key!r}] {self.op} {self.value!r}"


class FluentFinalAllSpec(ContractSpec):
    """``F.final.all(pred)``: ``pred(item)`` for every key (``item.key``, ``item.value``)."""

    __slots__ = ("fluent", "pred")

    def __init__(self, fluent: FluentDecl, pred: Callable[[Any], Any]) -> None:
        self.fluent = fluent
        self.pred = pred

    def __repr__(self) -> str:
        return f"{self.fluent.name}.final.all(…)"


class _Final:
    __slots__ = ("fluent",)

    def __init__(self, fluent: FluentDecl) -> None:
        self.fluent = fluent

    def __getitem__(self, key: Any) -> _FinalItem:
        if not _is(key, self.fluent.key):
            raise TypeError(f"fluent {self.fluent.name!r} has {self.fluent.key.__name__} keys, got {key!r}")
        return _FinalItem(self.fluent, key)

    def all(self, pred: Callable[[Any], Any]) -> FluentFinalAllSpec:
        if not callable(pred):
            raise TypeError("final.all takes a lambda")
        return FluentFinalAllSpec(self.fluent, pred)


class _FinalItem:
    __slots__ = ("fluent", "key")

    def __init__(self, fluent: FluentDecl, key: Any) -> None:
        self.fluent = fluent
        self.key = key

    def _spec(self, op: str, value: Any) -> FluentFinalSpec:
        if not _is(value, self.fluent.value):
            raise TypeError(f"fluent {self.fluent.name!r} holds {self.fluent.value.__name__} values, got {value!r}")
        return FluentFinalSpec(self.fluent, op, self.key, value)

    def __eq__(self, value: Any) -> FluentFinalSpec:  # type: ignore[override]  # == builds a contract (the guarantee language), not a bool
        return self._spec("==", value)

    def __ne__(self, value: Any) -> FluentFinalSpec:  # type: ignore[override]  # != builds a contract (the guarantee language), not a bool
        return self._spec("!=", value)

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TypeError("compare F.final[key] with == or !=")


FLUENTS: dict[str, FluentDecl] = {}


def fluent(name: str, *, value: type, key: type = str, initial: Any) -> FluentDecl:
    """Declare a keyed state cell (``key``, ``value`` ∈ str, int, bool; ``initial`` of type ``value``)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"fluent name must be a non-empty str, got {name!r}")
    if key not in _TYPES or value not in _TYPES:
        raise TypeError(f"fluent {name!r}: key and value must each be str, int or bool")
    if not _is(initial, value):
        raise TypeError(f"fluent {name!r}: initial {initial!r} is not a {value.__name__}")
    frame = sys._getframe(1)
    decl = FluentDecl(
        name, key, value, initial, str(frame.f_globals.get("__name__", "?")), frame.f_code.co_filename, frame.f_lineno
    )
    old = FLUENTS.get(name)
    if old is not None and (old.file, old.line) != (decl.file, decl.line):
        raise ValueError(f"fluent {name!r} declared twice: {old.file}:{old.line} and {decl.file}:{decl.line}")
    FLUENTS[name] = decl
    return decl


def effect(pred: Callable[..., Any]) -> Callable[[F], F]:
    """Fluent updates of an effect: ``@effect(lambda <params>: F.set(k, v) or [F.set(…), …])``."""
    return attach_lambda("fluent.effect", "fluent_effect", pred)
