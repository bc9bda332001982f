"""The interpreter's own meaning of the operations where CPython's would differ from the proof (DEC-15).

docs/semantics.md has the table. In short:

* ``==``, ``in``, ``count``, ``index`` and container ordering compare by ``==`` only: CPython's
  containers first check identity, so a NaN object would equal itself inside a list, a tuple, a dict
  key or a set, while the prover (and IEEE) say NaN never equals anything.
* A key (dict key, set element) that holds a NaN can never be found again: it is stored as a fresh
  object, so CPython's identity shortcut has nothing to match.
* :class:`OrderedSet` replaces CPython's ``set``: it iterates in insertion order (CPython iterates in
  hash order, which for strings changes with ``PYTHONHASHSEED``), as the prover models it.
* ``sum`` adds left to right (CPython ≥ 3.12 compensates float sums; 3.11 does not).
* ``str()`` of an int has no digit limit (CPython refuses more than 4,300 digits by default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from clauz3.interp.values import OrderedSet, findable, fresh_key, has_nan, untag, values_equal
from clauz3.language.digits import int_text, parse_int

# Re-exported: the interpreter's int <-> str, and value equality (defined with the values, in
# values.py, because a Row compares its fields by it).
__all__ = ["OrderedSet", "findable", "fresh_key", "has_nan", "int_text", "parse_int", "values_equal"]



def contains(container: Any, needle: Any) -> bool:
    """``needle in container`` by ``==`` only."""
    container = untag(container)
    if isinstance(container, str):
        return str.__contains__(container, untag(needle))
    if isinstance(container, dict):
        return findable(needle) and needle in container
    if isinstance(container, OrderedSet):
        return container.contains(needle)
    return any(values_equal(x, needle) for x in container)


def count(container: Any, needle: Any) -> int:
    return sum(1 for x in untag(container) if values_equal(x, needle))


def index(container: Any, needle: Any) -> int:
    for k, x in enumerate(untag(container)):
        if values_equal(x, needle):
            return k
    if isinstance(untag(container), tuple):
        raise ValueError("tuple.index(x): x not in tuple")
    raise ValueError(f"{_repr(needle)} is not in list")  # CPython's own messages


def ordering(op: str, a: Any, b: Any) -> bool:
    """``<``, ``<=``, ``>``, ``>=`` on lists and tuples: first unequal position by ``==`` only."""
    a, b = untag(a), untag(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and type(a) is type(b):
        for x, y in zip(a, b, strict=False):
            if not values_equal(x, y):
                return ordering(op, x, y)
        a, b = len(a), len(b)
    if op == "<":
        return bool(a < b)
    if op == "<=":
        return bool(a <= b)
    if op == ">":
        return bool(a > b)
    return bool(a >= b)


def dict_get(d: dict[Any, Any], key: Any, default: Any = None) -> Any:
    return d.get(key, default) if findable(key) else default


def dict_item(d: dict[Any, Any], key: Any) -> Any:
    if not findable(key):
        raise KeyError(untag(key))
    return d[key]


def dict_store(d: dict[Any, Any], key: Any, value: Any) -> None:
    """``d[key] = value``: a NaN key is a new entry (it equals no existing key)."""
    d[fresh_key(key) if has_nan(key) else key] = value


def build_dict(pairs: Iterable[tuple[Any, Any]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for k, v in pairs:
        dict_store(out, k, v)
    return out


def copy_container(value: Any) -> Any:
    """A shallow copy of a mutable collection (value semantics: the copy is what gets mutated)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, OrderedSet):
        return value.copy()
    return value


def left_sum(items: Iterable[Any], start: Any = 0) -> Any:
    """``sum`` as repeated ``+`` from the left, on every CPython version."""
    total = start
    for item in items:
        total = total + untag(item)
    return total


def text(value: Any = "") -> str:
    """``str(value)`` without CPython's int digit limit, sets shown in insertion order."""
    value = untag(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (list, tuple, dict, OrderedSet)) or (isinstance(value, int) and not isinstance(value, bool)):
        return _repr(value)
    return str(value)


def _repr(value: Any) -> str:
    value = untag(value)
    if isinstance(value, bool) or value is None or isinstance(value, (float, str)):
        return repr(value)
    if isinstance(value, int):
        return int_text(value)
    if isinstance(value, list):
        return "[" + ", ".join(_repr(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(_repr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_repr(k)}: {_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, OrderedSet):
        return "{" + ", ".join(_repr(v) for v in value) + "}" if len(value) else "set()"
    return repr(value)


def from_plain(value: Any) -> Any:
    """A value from trusted code as a program value: its sets become :class:`OrderedSet`."""
    if isinstance(value, (set, frozenset)):
        return OrderedSet(from_plain(v) for v in value)
    if isinstance(value, list):
        return [from_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(from_plain(v) for v in value)
    if isinstance(value, dict):
        return build_dict((from_plain(k), from_plain(v)) for k, v in value.items())
    return value


def power(a: Any, b: Any) -> Any:
    """``a ** b``. With a float operand CPython returns a complex number for a negative finite base
    and a finite fractional exponent; the checked subset has no complex numbers, so that is a
    ``ValueError`` here (as ``math.pow`` says), which the prover makes an obligation."""
    a, b = untag(a), untag(b)
    if not (isinstance(a, float) or isinstance(b, float)):
        return a ** b
    x, y = float(a), float(b)  # OverflowError for an int too large, as CPython's own conversion
    if math.isfinite(x) and x < 0 and math.isfinite(y) and y != math.floor(y):
        raise ValueError("negative number cannot be raised to a fractional power")
    return x ** y  # ZeroDivisionError for 0.0 ** negative, OverflowError when the result overflows
