"""Events that effects perform (01 §2.7 EVT-1, EVT-2).

``class Write(Event): path: str`` declares an event type: a frozen dataclass with ``str``,
``int`` or ``bool`` fields. On the class, ``Write.all(…)``, ``Write.where(…)`` etc. build
relations over the events of that class and its subclasses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

from clauz3.vocabulary.contracts import (
    AllSpec,
    DistinctSpec,
    EmptySpec,
    EventRelation,
    Relation,
    SharesValueSpec,
    SumSpec,
)
from clauz3.vocabulary.decorators import attach_lambda

__all__ = ["RESERVED_FIELDS", "Event", "event_fields", "performs"]

F = TypeVar("F", bound=Callable[..., Any])

RESERVED_FIELDS = frozenset({"all", "where", "empty", "distinct", "count", "sum", "shares_value", "final"})
_FIELD_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


def _field_type(annotation: Any) -> type | None:
    if isinstance(annotation, str):
        return _FIELD_TYPES.get(annotation.strip())
    return annotation if annotation in (str, int, bool) else None


# Tells the type checker what __init_subclass__ does: every subclass is a frozen dataclass.
@dataclass_transform(frozen_default=True)
class Event:
    """Base of event types; subclasses become frozen dataclasses."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        import dataclasses

        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - own annotations only
        for name, annotation in own.items():
            if name in RESERVED_FIELDS:
                raise TypeError(f"Event {cls.__name__}: field name {name!r} is reserved")
            if name.startswith("_"):
                raise TypeError(f"Event {cls.__name__}: field names must not start with '_' ({name!r})")
            if _field_type(annotation) is None:
                raise TypeError(f"Event {cls.__name__}: field {name!r} must be annotated str, int or bool, got {annotation!r}")
        dataclasses.dataclass(frozen=True)(cls)

    @classmethod
    def relation(cls) -> EventRelation:
        return EventRelation(cls, ())

    @classmethod
    def where(cls, pred: Callable[[Any], Any]) -> EventRelation:
        return cls.relation().where(pred)

    @classmethod
    def all(cls, pred: Callable[[Any], Any]) -> AllSpec:
        return cls.relation().all(pred)

    @classmethod
    def empty(cls) -> EmptySpec:
        return cls.relation().empty()

    @classmethod
    def distinct(cls, key: Callable[[Any], Any]) -> DistinctSpec:
        return cls.relation().distinct(key)

    @classmethod
    def count(cls) -> SumSpec:
        return cls.relation().count()

    @classmethod
    def sum(cls, value: Callable[[Any], Any]) -> SumSpec:
        return cls.relation().sum(value)

    @classmethod
    def shares_value(cls, other: Relation | type[Event], key: Callable[[Any], Any]) -> SharesValueSpec:
        return cls.relation().shares_value(other, key)


def event_fields(cls: type[Event]) -> dict[str, type]:
    """Fields of an event class, inherited first, as Python types."""
    import dataclasses

    out: dict[str, type] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # Event subclasses are dataclasses, made so in __init_subclass__
        tp = _field_type(f.type)
        if tp is not None:
            out[f.name] = tp
    return out


def performs(pred: Callable[..., Any]) -> Callable[[F], F]:
    """Events an effect performs: ``@performs(lambda <effect params>: [E1(p), E2(q, r)])``."""
    return attach_lambda("performs", "performs", pred)
