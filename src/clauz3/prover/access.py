"""Reading into collections with Python semantics: subscripts (with their IndexError / KeyError
obligations), slices, and the items a loop or a builtin unrolls (range, enumerate, dict views)."""

from __future__ import annotations

from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover.logic import z3_true
from clauz3.prover.ops import const_int, to_index
from clauz3.prover.state import SymbolicExecutor
from clauz3.prover.values import (
    DictV,
    ListV,
    NoneV,
    TDictV,
    TListV,
    Unsupported,
    check,
    dict_lookup,
    dict_visible,
    is_bool,
    is_str,
    length,
    raw,
    str_lit,
    to_int,
    val,
    visible,
)


def dict_key(d: TDictV, key: Any) -> Any:
    """``key`` as a term of a trusted dict's key sort, or Unsupported (a list, an ``object``, another
    type: the interpreter finds nothing there, which this encoding does not say)."""
    k = raw(check(key))
    if isinstance(k, z3.ExprRef) and is_bool(k) and d.has.domain() == z3.IntSort():
        k = to_int(k)  # True == 1: one key
    if not isinstance(k, z3.ExprRef) or k.sort() != d.has.domain():
        raise Unsupported("a key of another type than the trusted dict's keys")
    return k




# -------------------------------------------------------------------------------- subscripts


def subscript(ex: SymbolicExecutor, node: ir.Subscript, coll: Any, index: Any) -> Any:
    coll = val(coll)
    src = node.source or "…[…]"
    if isinstance(coll, DictV):
        found, value = dict_lookup(coll, index)
        ex.exception("KeyError", node, found, src, (("key", index),))
        if value is None:
            return ex.fresh_value(node.type, "missing", abstract=True)
        return value
    if isinstance(coll, TDictV):
        if coll.has is None:
            flag = ex.ctx.fresh_bool("has")
            ex.exception("KeyError", node, flag, src, (("key", index),))
            return ex.fresh_value(node.type, "dictval", abstract=True)
        key = dict_key(coll, index)
        ex.exception("KeyError", node, z3.Select(coll.has, key), src, (("key", index),))
        return z3.Select(coll.val, key)
    i = to_index(index)
    n = length(coll)
    ex.exception("IndexError", node, z3.And(-n <= i, i < n), src, (("index", i), ("length", n)))
    norm = z3.If(i < 0, i + n, i)
    if is_str(coll):
        return z3.SubString(coll, norm, 1)
    if isinstance(coll, TListV):
        ci = const_int(i)
        return coll.elem(z3.IntVal(ci) if ci is not None and ci >= 0 else z3.simplify(norm))
    if isinstance(coll, ListV):
        ci = const_int(i)
        if ci is not None and isinstance(coll.n, int):
            k = ci + coll.n if ci < 0 else ci
            if 0 <= k < coll.n:
                return coll.items[k]
        if not coll.items:
            return ex.fresh_value(node.type, "index", abstract=True)
        from clauz3.prover.values import merge

        value = coll.items[-1]
        for k in reversed(range(len(coll.items) - 1)):
            value = merge(norm == k, coll.items[k], value)
        return value
    raise Unsupported("indexing this value")


def slice_(ex: SymbolicExecutor, coll: Any, lower: Any, upper: Any) -> Any:
    coll = val(coll)
    n = length(coll)

    def bound(v: Any, default: Any) -> Any:
        if v is None or isinstance(check(v), NoneV):
            return default
        x = to_index(v)
        return z3.If(x < 0, z3.If(x + n < 0, 0, x + n), z3.If(x > n, n, x))

    start = bound(lower, z3.IntVal(0))
    end = bound(upper, n)
    if is_str(coll):
        return z3.SubString(coll, start, z3.If(end > start, end - start, 0))
    if isinstance(coll, ListV) and isinstance(coll.n, int):
        s, e = const_int(start), const_int(end)
        if s is not None and e is not None:
            items = coll.items[s:e]
            return ListV(items, len(items), coll.kind)
    raise Unsupported("slicing a collection with non-constant bounds")


# --------------------------------------------------------------------------------- iteration


def iterate(ex: SymbolicExecutor, it: ir.Expr) -> list[tuple[Any, Any]]:
    """Items of an unrollable iterable as ``(guard, value)``; ``guard`` says the item exists."""
    if isinstance(it, ir.BuiltinCall) and it.name in ("range", "enumerate"):
        if it.name == "range":
            bounds = [const_int(ex.eval(a)) for a in it.args]
            if any(b is None for b in bounds):
                raise Unsupported("range() with non-constant arguments")
            return [(z3_true(), z3.IntVal(k)) for k in range(*(b for b in bounds if b is not None))]  # none is None (tested above)
        inner = iterate(ex, it.args[0])
        start = 0
        if len(it.args) > 1:
            start = const_int(ex.eval(it.args[1])) or 0
        for name, val in it.kwargs:
            if name == "start":
                start = const_int(ex.eval(val)) or 0
        return [(guard, ListV([index, item], 2, "tuple")) for guard, index, item in positions(inner, start)]
    if isinstance(it, ir.MethodCall) and it.receiver == "dict" and it.method in ("items", "keys", "values"):
        d = check(ex.eval(it.obj))
        if not isinstance(d, DictV):
            raise Unsupported("iterating a dict of unknown size")
        out = []
        for k in range(len(d.keys)):
            _, value = dict_lookup(d, d.keys[k])
            item = {"keys": d.keys[k], "values": value,
                    "items": ListV([d.keys[k], value], 2, "tuple")}[it.method]
            out.append((dict_visible(d, k), item))
        return out
    return items_of(ex, ex.eval(it))


def positions(items: list[tuple[Any, Any]], start: int = 0) -> list[tuple[Any, Any, Any]]:
    """``(guard, index, item)``: an item's index counts only the items before it that exist.

    A set hides a repeat of an earlier element and a dict an overwritten key (their guards are false
    there), so the interpreter's index of an item is the number of real items before it, never its
    position among the entries the proof keeps (issue 18, family 3).
    """
    out = []
    count: Any = z3.IntVal(start)
    for guard, item in items:
        out.append((guard, z3.simplify(count), item))
        count = count + z3.If(guard, 1, 0) if not z3.is_true(guard) else count + 1
    return out


def items_of(ex: SymbolicExecutor, coll: Any) -> list[tuple[Any, Any]]:
    coll = val(coll)
    if isinstance(coll, ListV):
        return [(visible(coll, k, ex.ctx.fresh_bool), item) for k, item in enumerate(coll.items)]
    if isinstance(coll, DictV):
        return [(dict_visible(coll, k), coll.keys[k]) for k in range(len(coll.keys))]
    if is_str(coll):
        s = z3.simplify(coll)
        if z3.is_string_value(s):
            from clauz3.prover.counterexample import string_chars

            text = string_chars(s)
            return [(z3_true(), str_lit(ch)) for ch in text]
        raise Unsupported("iterating a string of unknown length")
    raise Unsupported("unrolling a loop over a collection of unknown length")


