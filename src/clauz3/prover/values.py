"""Symbolic values, one representation per IR type (01 TYP-2).

Scalars are plain z3 terms: ``bool`` → Bool, ``int`` → Int (unbounded), ``float`` → FP64 (IEEE
binary64, never Real), ``str`` → String. Everything else is a small Python wrapper:

* :data:`NONE_V` — ``None``; :class:`OptV` — ``T | None`` as a tagged pair.
* :class:`Tagged` — a scalar read, unmodified, from a field of a trusted row (PRED-3 provenance).
  Any operation that computes a new value drops the tag (operations go through :func:`raw`).
* :class:`ListV` — list/tuple/set of statically bounded length: concrete items plus a length
  term ``n`` (items at positions ≥ n are junk; merging lists of different lengths needs this).
* :class:`DictV` — owned/literal dict: entries with presence guards; the last present entry for
  a key gives its value.
* :class:`TListV` / :class:`TDictV` — trusted collections of unknown length (read-only).
* :class:`RowV` — a Row instance (fields map); :class:`RowClassV`; :class:`ColumnV` (``ColumnRef``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import z3

from clauz3.language import ir
from clauz3.language.types import show  # the Python spelling, never the IR's class names
from clauz3.prover.errors import ProverError


@cache
def f64() -> z3.FPSortRef:
    """IEEE double in z3's main context, made on first use: importing the prover creates no z3 context, so the
    bridge's warm prover waits without one (01 WARM-1) and each forked worker makes its own (06 tree_rss)."""
    return z3.Float64()


@cache
def rne() -> z3.FPRMRef:
    """Round-to-nearest-even, made on first use (see :func:`f64`)."""
    return z3.RNE()


MAX_CHAR = 0x2FFFF  # z3's Unicode alphabet ends here; larger code points cannot be represented


class Unsupported(ProverError):
    """The encoding cannot represent this soundly; the affected obligations become ``unknown``."""


class NoneV:
    _inst: NoneV | None = None

    def __repr__(self) -> str:
        return "None"


NONE_V = NoneV()


@dataclass
class OptV:
    is_none: z3.BoolRef
    value: Any


@dataclass(frozen=True)
class Prov:
    """Under ``guard`` the value is field ``field`` of row ``ident`` of a result typed ``schema``."""

    guard: z3.BoolRef
    schema: str
    field: str
    ident: tuple[Any, ...]  # (site number as int, loop indices…, row index) — all z3 Int terms


@dataclass
class Tagged:
    z: Any
    prov: tuple[Prov, ...]


@dataclass
class ListV:
    items: list[Any]
    n: Any  # python int or z3 Int term
    kind: str = "list"  # list | tuple | set


@dataclass
class DictV:
    keys: list[Any]
    vals: list[Any]
    present: list[Any]  # z3 Bool per entry


@dataclass
class TListV:
    """Trusted read-only collection: ``length`` term and ``elem(i)`` giving element ``i``."""

    length: Any
    elem: Callable[[Any], Any]
    elem_type: ir.Type
    label: str
    kind: str = "list"
    members: dict[str, Any] = field(default_factory=dict)


@dataclass
class TDictV:
    has: Any  # Array(K, Bool)
    val: Any  # Array(K, V)
    length: Any
    key_type: ir.Type
    value_type: ir.Type
    label: str


@dataclass
class RowV:
    schema: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class RowClassV:
    schema: str


@dataclass(frozen=True)
class ColumnV:
    schema: str
    field: str


@dataclass
class OpaqueV:
    """A value of type ``object`` we know nothing about (fresh trusted data of mixed type)."""

    label: str


@dataclass
class RecordV:
    """A call record, event or fluent item seen by a contract predicate."""

    fields: dict[str, Any]


@dataclass
class LazyUnsupported:
    reason: str


@dataclass
class MixedV:
    """A number whose Python type depends on the path (``x = True if c else 2``): one ``(guard, term)``
    per type, bool / int / float, guards disjoint on the path. Merging never converts (str(True) is
    "True", 2**53 + 1 is no float): operations run once per type under its guard (ops.lift)."""

    opts: tuple[tuple[Any, Any], ...]


def _numeric_term(v: Any) -> bool:
    return is_term(v) and (is_bool(v) or is_int(v) or is_float(v))


def _kind(v: Any) -> str:
    return "bool" if is_bool(v) else "float" if is_float(v) else "int"


def options(v: Any) -> tuple[tuple[Any, Any], ...]:
    """``(guard, value)`` alternatives of a value: its types for a :class:`MixedV`, else itself."""
    return v.opts if isinstance(v, MixedV) else ((z3.BoolVal(True), v),)


def merge_mixed(c: Any, a: Any, b: Any) -> Any:
    """``a`` if ``c`` else ``b`` for numbers of different Python types, kept apart."""
    by_kind: dict[str, tuple[Any, Any]] = {}
    for cond, side in ((c, a), (z3.Not(c), b)):
        for g, v in options(side):
            guard = z3.And(cond, g) if not z3.is_true(g) else cond
            k = _kind(v)
            if k in by_kind:
                g0, v0 = by_kind[k]
                by_kind[k] = (z3.Or(g0, guard), v0 if v0.eq(v) else z3.If(g0, v0, v))
            else:
                by_kind[k] = (guard, v)
    if len(by_kind) == 1:
        return next(iter(by_kind.values()))[1]
    return MixedV(tuple(by_kind.values()))


# ------------------------------------------------------------------------------------- basics


def raw(v: Any) -> Any:
    """Drop provenance: the value as a plain term."""
    return v.z if isinstance(v, Tagged) else v


def is_term(v: Any) -> bool:
    return isinstance(v, z3.ExprRef)


def is_bool(v: Any) -> bool:
    return isinstance(v, z3.BoolRef)


def is_int(v: Any) -> bool:
    return isinstance(v, z3.ArithRef) and v.is_int()


def is_float(v: Any) -> bool:
    return isinstance(v, z3.FPRef)


def is_str(v: Any) -> bool:
    return isinstance(v, z3.SeqRef) and v.is_string()


def check(v: Any) -> Any:
    if isinstance(v, LazyUnsupported):
        raise Unsupported(v.reason)
    return v


# Told about every ``T | None`` an operation needs as a ``T`` (``val``): the executor makes it an obligation
# that the value is not None there (issue 18), so a None the checker's narrowing missed is never
# computed with as its payload.
_NONE_USE: ContextVar[Callable[[Any], None] | None] = ContextVar("clauz3_none_use", default=None)


@contextmanager
def none_uses(report: Callable[[Any], None]) -> Iterator[None]:
    """While the body runs, ``report(is_none)`` is called for each Optional an operation unwraps."""
    token = _NONE_USE.set(report)
    try:
        yield
    finally:
        _NONE_USE.reset(token)


def val(v: Any) -> Any:
    """The plain value for an operation; ``T | None`` yields its payload, and its None flag goes to
    the executor as an obligation (the operation would raise TypeError on None)."""
    v = check(raw(v))
    if isinstance(v, OptV):
        report = _NONE_USE.get()
        if report is not None:
            report(v.is_none)
        return val(v.value)
    return v


def str_lit(text: str) -> z3.SeqRef:
    """A string literal, exact: z3 would read ``\\u{…}`` escapes in the text, so backslashes are escaped."""
    if any(ord(ch) > MAX_CHAR for ch in text):
        raise Unsupported("a string holds a character above U+2FFFF, which the solver cannot represent")
    return z3.StringVal(text.replace("\\", "\\u{5c}"))


def float_lit(x: float) -> z3.FPRef:
    if x != x:
        return z3.fpNaN(f64())
    if x == float("inf"):
        return z3.fpPlusInfinity(f64())
    if x == float("-inf"):
        return z3.fpMinusInfinity(f64())
    return z3.FPVal(x, f64())


def to_int(v: Any) -> Any:
    v = raw(v)
    if isinstance(v, MixedV):
        if any(is_float(t) for _, t in v.opts):
            raise Unsupported("a number that may be a float or an int here")
        value = to_int(v.opts[-1][1])
        for g, t in reversed(v.opts[:-1]):
            value = z3.If(g, to_int(t), value)
        return value
    if is_bool(v):
        return z3.If(v, z3.IntVal(1), z3.IntVal(0))
    return v


def int_to_float(v: Any) -> z3.FPRef:
    v = to_int(v)
    return z3.fpToFP(rne(), z3.ToReal(v), f64())


def to_float(v: Any) -> z3.FPRef:
    v = raw(v)
    if isinstance(v, MixedV):
        raise Unsupported("a number whose type depends on the path, where one type is needed")
    if is_float(v):
        return v
    return int_to_float(v)


def sort_of(t: ir.Type) -> z3.SortRef:
    if isinstance(t, ir.TScalar):
        if t.name == "bool":
            return z3.BoolSort()
        if t.name == "int":
            return z3.IntSort()
        if t.name == "float":
            return f64()
        if t.name == "str":
            return z3.StringSort()
    raise Unsupported(f"values of type {show(t)} here")


# ----------------------------------------------------------------------------------- merging


def merge(c: Any, a: Any, b: Any) -> Any:
    """The value that is ``a`` when ``c`` holds and ``b`` otherwise."""
    if a is b:
        return a
    if z3.is_true(c):
        return a
    if z3.is_false(c):
        return b
    if isinstance(a, Tagged) or isinstance(b, Tagged):
        pa = a.prov if isinstance(a, Tagged) else ()
        pb = b.prov if isinstance(b, Tagged) else ()
        z = merge(c, raw(a), raw(b))
        prov = tuple(Prov(z3.And(c, p.guard), p.schema, p.field, p.ident) for p in pa) + tuple(
            Prov(z3.And(z3.Not(c), p.guard), p.schema, p.field, p.ident) for p in pb)
        return Tagged(z, prov)
    if isinstance(a, NoneV) and isinstance(b, NoneV):
        return a
    if isinstance(a, NoneV | OptV) or isinstance(b, NoneV | OptV):
        oa = a if isinstance(a, OptV) else OptV(z3.BoolVal(True), None) if isinstance(a, NoneV) else \
            OptV(z3.BoolVal(False), a)
        ob = b if isinstance(b, OptV) else OptV(z3.BoolVal(True), None) if isinstance(b, NoneV) else \
            OptV(z3.BoolVal(False), b)
        if oa.value is None:
            val = ob.value
        elif ob.value is None:
            val = oa.value
        else:
            val = merge(c, oa.value, ob.value)
        return OptV(z3.If(c, oa.is_none, ob.is_none), val)
    if (isinstance(a, MixedV) or _numeric_term(a)) and (isinstance(b, MixedV) or _numeric_term(b)) and (
            isinstance(a, MixedV) or isinstance(b, MixedV) or a.sort() != b.sort()):
        return merge_mixed(c, a, b)
    if is_term(a) and is_term(b):
        if a.sort() != b.sort():
            raise Unsupported(f"a value that may be {_py_type(a)} or {_py_type(b)} (give it one type)")
        if a.eq(b):
            return a
        return z3.If(c, a, b)
    if isinstance(a, ListV) and isinstance(b, ListV):
        size = max(len(a.items), len(b.items))
        items = []
        for k in range(size):
            ia = a.items[k] if k < len(a.items) else b.items[k]
            ib = b.items[k] if k < len(b.items) else a.items[k]
            items.append(merge(c, ia, ib))
        n = a.n if (isinstance(a.n, int) and isinstance(b.n, int) and a.n == b.n) else \
            z3.If(c, _int_term(a.n), _int_term(b.n))
        return ListV(items, n, a.kind)
    if isinstance(a, DictV) and isinstance(b, DictV):
        size = max(len(a.keys), len(b.keys))
        keys, vals, present = [], [], []
        for k in range(size):
            ka = a.keys[k] if k < len(a.keys) else b.keys[k]
            kb = b.keys[k] if k < len(b.keys) else a.keys[k]
            va = a.vals[k] if k < len(a.vals) else b.vals[k]
            vb = b.vals[k] if k < len(b.vals) else a.vals[k]
            pa = a.present[k] if k < len(a.present) else z3.BoolVal(False)
            pb = b.present[k] if k < len(b.present) else z3.BoolVal(False)
            keys.append(merge(c, ka, kb))
            vals.append(merge(c, va, vb))
            present.append(z3.If(c, pa, pb))
        return DictV(keys, vals, present)
    if isinstance(a, RowV) and isinstance(b, RowV) and a.schema == b.schema:
        return RowV(a.schema, {f: merge(c, a.fields[f], b.fields[f]) for f in a.fields})
    if isinstance(a, RowClassV | ColumnV) and a == b:
        return a
    return LazyUnsupported("a value that differs between branches in a way the prover cannot merge")


def _py_type(t: Any) -> str:
    """The Python type a solver term stands for, for messages (never a solver sort name)."""
    return "a str" if is_str(t) else "a float" if is_float(t) else "a bool" if is_bool(t) else \
        "an int" if is_int(t) else "another kind of value"


def _int_term(n: Any) -> Any:
    return z3.IntVal(n) if isinstance(n, int) else n


def merge_many(options: list[tuple[Any, Any]]) -> Any:
    """Merge ``(guard, value)`` pairs with disjoint guards; the last one is the fallback."""
    value = options[-1][1]
    for guard, v in reversed(options[:-1]):
        value = merge(guard, v, value)
    return value


# ---------------------------------------------------------------------------------- equality


def num_eq(a: Any, b: Any) -> z3.BoolRef:
    a, b = raw(a), raw(b)
    if is_float(a) or is_float(b):
        if is_float(a) and is_float(b):
            return z3.fpEQ(a, b)
        f, i = (a, b) if is_float(a) else (b, a)
        return z3.And(z3.Not(z3.fpIsNaN(f)), z3.Not(z3.fpIsInf(f)), z3.fpToReal(f) == z3.ToReal(to_int(i)))
    if is_bool(a) and is_bool(b):
        return a == b
    return to_int(a) == to_int(b)


def _numeric(v: Any) -> bool:
    return is_bool(v) or is_int(v) or is_float(v)


def eq(a: Any, b: Any, fresh_bool: Callable[[str], z3.BoolRef] | None = None) -> z3.BoolRef:
    """Python ``==`` between two values (``fresh_bool`` abstracts cases without an exact encoding)."""
    a, b = check(raw(a)), check(raw(b))
    if isinstance(a, MixedV) or isinstance(b, MixedV):
        return z3.Or(*[z3.And(ga, gb, eq(va, vb, fresh_bool)) for ga, va in options(a) for gb, vb in options(b)])
    if isinstance(a, NoneV) and isinstance(b, NoneV):
        return z3.BoolVal(True)
    if isinstance(a, NoneV):
        return b.is_none if isinstance(b, OptV) else z3.BoolVal(False)
    if isinstance(b, NoneV):
        return a.is_none if isinstance(a, OptV) else z3.BoolVal(False)
    if isinstance(a, OptV) and isinstance(b, OptV):
        return z3.If(a.is_none, b.is_none, z3.And(z3.Not(b.is_none), eq(a.value, b.value, fresh_bool)))
    if isinstance(a, OptV):
        return z3.And(z3.Not(a.is_none), eq(a.value, b, fresh_bool))
    if isinstance(b, OptV):
        return z3.And(z3.Not(b.is_none), eq(a, b.value, fresh_bool))
    if is_term(a) and is_term(b):
        if _numeric(a) and _numeric(b):
            return num_eq(a, b)
        if a.sort() == b.sort():
            return a == b
        return z3.BoolVal(False)
    if isinstance(a, ListV) and isinstance(b, ListV):
        if (a.kind == "set") != (b.kind == "set") or (a.kind != "set" and a.kind != b.kind):
            return z3.BoolVal(False)
        if a.kind == "set":
            return z3.And(subset(a, b, fresh_bool), subset(b, a, fresh_bool))
        parts = [_int_term(a.n) == _int_term(b.n)]
        for k in range(min(len(a.items), len(b.items))):
            parts.append(z3.Implies(k < _int_term(a.n), eq(a.items[k], b.items[k], fresh_bool)))
        if len(a.items) != len(b.items):
            parts.append(_int_term(a.n) <= min(len(a.items), len(b.items)))
        return z3.And(*parts)
    if isinstance(a, RowV) and isinstance(b, RowV):
        if a.schema != b.schema:
            return z3.BoolVal(False)
        return z3.And(*[eq(a.fields[f], b.fields[f], fresh_bool) for f in a.fields]) if a.fields else \
            z3.BoolVal(True)
    if isinstance(a, RowClassV | ColumnV) or isinstance(b, RowClassV | ColumnV):
        return z3.BoolVal(a == b)
    if isinstance(a, DictV) and isinstance(b, DictV):
        parts = [length(a) == length(b)]
        for k in range(len(a.keys)):
            # Pairwise over the entries that hold the key's value, never merging them: a dict's
            # values may have different sorts ({"age": 3, "name": "bob"}).
            same = z3.Or(*[z3.And(ga, gb, eq(va, vb, fresh_bool))
                           for ga, va in dict_holders(a, a.keys[k]) for gb, vb in dict_holders(b, a.keys[k])])
            parts.append(z3.Implies(dict_visible(a, k), same))
        return z3.And(*parts)
    if (is_term(a) and isinstance(b, ListV | DictV | RowV)) or (is_term(b) and isinstance(a, ListV | DictV | RowV)):
        return z3.BoolVal(False)
    if fresh_bool is None:
        raise Unsupported("equality between these values has no exact encoding")
    return fresh_bool("eq")


def contains(coll: ListV, v: Any, fresh_bool: Callable[[str], z3.BoolRef] | None = None) -> z3.BoolRef:
    parts = []
    for k, item in enumerate(coll.items):
        guard = z3.BoolVal(True) if isinstance(coll.n, int) and k < coll.n else (k < _int_term(coll.n))
        parts.append(z3.And(guard, eq(item, v, fresh_bool)))
    return z3.Or(*parts) if parts else z3.BoolVal(False)


def subset(a: ListV, b: ListV, fresh_bool: Callable[[str], z3.BoolRef] | None = None) -> z3.BoolRef:
    parts = []
    for k, item in enumerate(a.items):
        parts.append(z3.Implies(k < _int_term(a.n), contains(b, item, fresh_bool)))
    return z3.And(*parts) if parts else z3.BoolVal(True)


def visible(coll: ListV, k: int, fresh_bool: Callable[[str], z3.BoolRef] | None = None) -> z3.BoolRef:
    """Item ``k`` is a real element (below the length; for sets, not a repeat of an earlier one)."""
    guard = z3.BoolVal(True) if isinstance(coll.n, int) and k < coll.n else (k < _int_term(coll.n))
    if coll.kind != "set":
        return guard
    repeats = [eq(coll.items[j], coll.items[k], fresh_bool) for j in range(k)]
    return z3.And(guard, z3.Not(z3.Or(*repeats))) if repeats else guard


def length(coll: Any) -> Any:
    if isinstance(coll, ListV):
        if coll.kind == "set":
            terms = [z3.If(visible(coll, k), 1, 0) for k in range(len(coll.items))]
            return z3.Sum(*terms) if terms else z3.IntVal(0)
        return _int_term(coll.n)
    if isinstance(coll, TListV | TDictV):
        return coll.length
    if isinstance(coll, DictV):
        terms = [z3.If(dict_visible(coll, k), 1, 0) for k in range(len(coll.keys))]
        return z3.Sum(*terms) if terms else z3.IntVal(0)
    raw_v = val(coll)
    if isinstance(raw_v, ListV | TListV | TDictV | DictV):
        return length(raw_v)
    if is_str(raw_v):
        return z3.Length(raw_v)
    raise Unsupported("len() of this value")


def dict_visible(d: DictV, k: int) -> z3.BoolRef:
    earlier = [z3.And(d.present[j], eq(d.keys[j], d.keys[k])) for j in range(k)]
    return z3.And(d.present[k], z3.Not(z3.Or(*earlier))) if earlier else d.present[k]


def dict_holders(d: DictV, key: Any) -> list[tuple[z3.BoolRef, Any]]:
    """``(entry k holds key's value, value k)``: k is the last present entry with an equal key."""
    hits = [z3.And(d.present[k], eq(d.keys[k], key)) for k in range(len(d.keys))]
    return [(z3.And(hits[k], *[z3.Not(h) for h in hits[k + 1:]]), d.vals[k]) for k in range(len(d.keys))]


def dict_lookup(d: DictV, key: Any) -> tuple[z3.BoolRef, Any]:
    """(key present, value) — the last present entry with an equal key wins."""
    found = z3.BoolVal(False)
    value: Any = None
    for k in range(len(d.keys)):
        hit = z3.And(d.present[k], eq(d.keys[k], key))
        value = d.vals[k] if value is None else merge(hit, d.vals[k], value)
        found = z3.Or(found, hit)
    return found, value
