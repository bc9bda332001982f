"""Run-time values of the interpreter.

Program values are ordinary Python objects (``None``, ``bool``, ``int``, ``float``, ``str``, ``list``,
``tuple``, ``set``, ``dict``) so that every operation has exactly CPython's semantics. Three additions:

* Provenance-tagged scalars (MON-1, PRED-3): a value read from a Row field of a trusted result is a
  :class:`TStr` / :class:`TInt` / :class:`TFloat` / :class:`TBool` carrying ``prov`` =
  :class:`Tag`. They behave exactly like the plain value; CPython's operators already return plain
  values for subclasses, and the interpreter strips tags from every value an operation creates, so a
  tag survives only while the value travels unmodified (binding, storing, indexing, passing).
* :class:`RowValue`: an immutable Row instance as the program sees it (field values tagged).
* :class:`RecordValue` / :class:`ColumnRefValue`: what contract predicates see (call records, events,
  fluent items, and ``Schema.field`` constants).
* Equality by ``==`` only (:func:`values_equal`, :class:`OrderedSet`, DEC-15): it lives with the
  values because a Row compares its fields by it; ``semantics.py`` re-exports it with the rest of
  the interpreter's own meanings.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from clauz3.interp.errors import InterpError
from clauz3.language.digits import int_text


@dataclass(frozen=True)
class Tag:
    """Where a scalar came from: field ``field`` of row ``row`` of the result of call ``result``."""

    schema: str
    field: str
    result: int
    row: int


class TStr(str):
    prov: Tag


class TInt(int):
    prov: Tag


class TFloat(float):
    prov: Tag


class TBool(int):
    """A tagged ``bool`` (``bool`` cannot be subclassed); prints and compares like ``True``/``False``."""

    prov: Tag

    def __repr__(self) -> str:
        return "True" if int(self) else "False"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(bool(int(self)), spec)


TAGGED = (TStr, TInt, TFloat, TBool)


def tag(value: Any, prov: Tag) -> Any:
    """Tag a scalar read from a row; other values are returned unchanged."""
    if isinstance(value, bool):
        out: Any = TBool(1 if value else 0)
    elif isinstance(value, str):
        out = TStr(value)
    elif isinstance(value, int):
        out = TInt(value)
    elif isinstance(value, float):
        out = TFloat(value)
    else:
        return value
    out.prov = prov
    return out


def untag(value: Any) -> Any:
    """The plain scalar for a tagged one (shallow: collections keep their elements)."""
    cls = type(value)
    if cls is TStr:
        return str.__str__(value)
    if cls is TInt:
        return int(value)
    if cls is TFloat:
        return float(value)
    if cls is TBool:
        return bool(int(value))
    return value


def prov_of(value: Any) -> Tag | None:
    return getattr(value, "prov", None) if type(value) in TAGGED else None


def is_bool(value: Any) -> bool:
    return isinstance(value, bool) or type(value) is TBool


def scalar_class(value: Any) -> type:
    """The program-visible class of a value (``bool`` for a tagged bool, ``str`` for a tagged str…)."""
    cls = type(value)
    if cls is TBool:
        return bool
    if cls in (TStr, TInt, TFloat):
        return cls.__mro__[1]
    return cls


class RowValue:
    """An immutable row: ``schema`` (key in ``CheckedProgram.rows``), ordered field values."""

    __slots__ = ("_fields", "original", "schema", "short")
    schema: str
    short: str
    _fields: dict[str, Any]
    original: Any  # the trusted library's own Row instance it came from, if any

    def __init__(self, schema: str, short: str, fields: dict[str, Any], original: Any = None) -> None:
        object.__setattr__(self, "schema", schema)
        object.__setattr__(self, "short", short)
        object.__setattr__(self, "_fields", dict(fields))
        object.__setattr__(self, "original", original)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rows are immutable")

    def get(self, name: str) -> Any:
        return self._fields[name]

    @property
    def fields(self) -> dict[str, Any]:
        return dict(self._fields)

    def _key(self) -> tuple[Any, ...]:
        return (self.schema, tuple((k, untag(v)) for k, v in self._fields.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RowValue) and values_equal(self, other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        if self.original is not None:
            return repr(self.original)
        inner = ", ".join(f"{k}={untag(v)!r}" for k, v in self._fields.items())
        return f"{self.short}({inner})"


# ------------------------------------------------------------------ equality (DEC-15, docs/semantics.md)
# Here, not in semantics.py, because a Row compares its fields by it and it knows Rows.


def has_nan(value: Any) -> bool:
    """The key contains a NaN, so by ``==`` it equals nothing, not even itself."""
    value = untag(value)
    if isinstance(value, float):
        return value != value
    if isinstance(value, tuple):
        return any(has_nan(v) for v in value)
    if isinstance(value, RowValue):
        return any(has_nan(v) for v in value.fields.values())
    return False


def findable(key: Any) -> bool:
    """Could ``key`` equal a stored key? Not when it holds a NaN, nor when it is unhashable (a list
    never equals a hashable key): lookups then miss, by ==, where CPython would raise TypeError."""
    if has_nan(key):
        return False
    try:
        hash(key)
    except TypeError:
        return False
    return True


def fresh_key(value: Any) -> Any:
    """A copy of a NaN-holding key that is no object seen before (arithmetic always makes a new float)."""
    raw = untag(value)
    if isinstance(raw, float):
        return raw + 0.0
    if isinstance(raw, tuple):
        return tuple(fresh_key(v) if has_nan(v) else v for v in raw)
    return value  # a Row holding NaN: rows are compared by values_equal, never by identity


def values_equal(a: Any, b: Any) -> bool:
    """Python ``==`` without the identity shortcut of CPython's containers."""
    a, b = untag(a), untag(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return False
        return all(values_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return False
        for k, v in a.items():
            if has_nan(k) or k not in b or not values_equal(v, b[k]):
                return False
        return True
    if isinstance(a, OrderedSet) and isinstance(b, OrderedSet):
        return len(a) == len(b) and all(b.contains(x) for x in a)
    if isinstance(a, RowValue) and isinstance(b, RowValue):
        fa, fb = a.fields, b.fields
        return a.schema == b.schema and fa.keys() == fb.keys() and all(values_equal(fa[k], fb[k]) for k in fa)
    if isinstance(a, (list, tuple, dict, OrderedSet, RowValue)) or isinstance(b, (list, tuple, dict, OrderedSet,
                                                                                  RowValue)):
        return False
    return bool(a == b)


class OrderedSet:
    """A set that iterates in insertion order; membership and de-duplication by ``==`` only."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items: dict[Any, None] = {}
        for item in items:
            self.add(item)

    def add(self, item: Any) -> None:
        if has_nan(item):
            self._items[fresh_key(item)] = None
        elif item not in self._items:
            self._items[item] = None

    def contains(self, item: Any) -> bool:
        return findable(item) and item in self._items

    def copy(self) -> OrderedSet:
        out = OrderedSet()
        out._items = dict(self._items)
        return out

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __contains__(self, item: Any) -> bool:
        return self.contains(item)

    def __eq__(self, other: object) -> bool:
        return values_equal(self, other)

    __hash__ = None  # type: ignore[assignment]  # unhashable, like set

    def __repr__(self) -> str:
        return "{" + ", ".join(repr(v) for v in self._items) + "}" if self._items else "set()"


@dataclass(frozen=True)
class ColumnRefValue:
    """``Schema.field`` in a predicate: compares by provenance, never by text (PRED-3)."""

    schema: str
    field: str


class _Missing:
    """A field an event class does not declare (EVT-3): any use makes the predicate undecidable."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


class MissingField(InterpError):
    """Raised when a predicate computes with :data:`MISSING`."""


class RecordValue:
    """A call record, event or fluent item as a predicate parameter: ``e.<field>``."""

    __slots__ = ("kind", "name", "values")

    def __init__(self, kind: str, name: str, values: dict[str, Any]) -> None:
        self.kind = kind
        self.name = name
        self.values = values

    def get(self, name: str) -> Any:
        return self.values.get(name, MISSING)


def to_plain(value: Any) -> Any:
    """A deep copy with every tag removed (what crosses the boundary to trusted code)."""
    value = untag(value)
    if isinstance(value, OrderedSet):
        return {to_plain(v) for v in value}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(to_plain(v) for v in value)
    if isinstance(value, set):
        return {to_plain(v) for v in value}
    if isinstance(value, frozenset):
        return frozenset(to_plain(v) for v in value)
    if isinstance(value, dict):
        return {to_plain(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, RowValue):
        if value.original is not None:
            return value.original
        return value
    return value


def render(value: Any, limit: int = 200) -> str:
    """A value as a Python literal for messages (strings double-quoted, cut after ``limit`` chars)."""
    value = untag(value)
    if isinstance(value, str):
        text = value
        if len(text) > limit:
            text = text[:limit]
            return json.dumps(text, ensure_ascii=False) + f"… (+{len(value) - limit} chars)"
        return json.dumps(text, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(render(v, limit) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(render(v, limit) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, (set, frozenset)) or type(value).__name__ == "OrderedSet":
        if not value:
            return "set()"
        return "{" + ", ".join(render(v, limit) for v in value) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{render(k, limit)}: {render(v, limit)}" for k, v in value.items()) + "}"
    if isinstance(value, RowValue):
        inner = ", ".join(f"{k}={render(v, limit)}" for k, v in value.fields.items())
        return f"{value.short}({inner})"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 2_000:
        digits = int_text(value)
        return digits[:limit] + f"… (+{len(digits) - limit} digits)"
    return repr(value)


def to_json(value: Any) -> Any:
    """JSON-able form of a run-time value (call records, reports)."""
    value = untag(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 2_000:
        return {"int": int_text(value)}  # json.dumps would raise: CPython's int→str digit limit
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"float": repr(value)}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, (set, frozenset)) or type(value).__name__ == "OrderedSet":
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(untag(k)): to_json(v) for k, v in value.items()}
    if isinstance(value, RowValue):
        return {"row": value.short, "fields": {k: to_json(v) for k, v in value.fields.items()}}
    return repr(value)
