"""Comparisons of the subset with Python semantics: ``==``/``is``, ``in``, and the provenance test of
PRED-3 (orderings ``<``… are :func:`clauz3.prover.ops.order`)."""

from __future__ import annotations

from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover.access import dict_key
from clauz3.prover.logic import mk_and
from clauz3.prover.ops import lift, order
from clauz3.prover.state import SymbolicExecutor
from clauz3.prover.values import (
    ColumnV,
    DictV,
    ListV,
    Prov,
    Tagged,
    TDictV,
    TListV,
    Unsupported,
    check,
    contains,
    dict_lookup,
    eq,
    is_str,
    val,
)


def compare(ex: SymbolicExecutor, node: ir.Expr, op: str, a: Any, b: Any) -> Any:
    return lift(ex, [a, b], lambda xs: _compare(ex, node, op, xs[0], xs[1]))


def _compare(ex: SymbolicExecutor, node: ir.Expr, op: str, a: Any, b: Any) -> Any:
    if op in ("==", "!=", "is", "is_not"):
        ca, cb = check(a), check(b)
        if isinstance(cb, ColumnV) or isinstance(ca, ColumnV) or _columns(cb) or _columns(ca):
            result = provenance(a, b) if (isinstance(cb, ColumnV) or _columns(cb)) else provenance(b, a)
        else:
            result = eq(a, b, ex.ctx.fresh_bool)
        return result if op in ("==", "is") else z3.Not(result)
    if op in ("in", "not_in"):
        result = membership(ex, a, b)
        return result if op == "in" else z3.Not(result)
    return order(ex, op, a, b)


def _columns(v: Any) -> bool:
    return isinstance(v, ListV) and bool(v.items) and all(isinstance(x, ColumnV) for x in v.items)


def provenance(value: Any, col: Any) -> Any:
    """PRED-3: the value is, unmodified, the named field of some trusted row (same row for tuples)."""
    if isinstance(col, ColumnV):
        return _prov_single(value, col)
    value = check(value)
    if not isinstance(value, ListV) or len(value.items) != len(col.items):
        return z3.BoolVal(False)
    tags = [v.prov if isinstance(v, Tagged) else () for v in value.items]
    options: list[tuple[Prov, ...]] = [()]
    for k, prov in enumerate(tags):
        options = [(*o, p) for o in options for p in prov if _col_match(p, col.items[k])]
    parts = []
    for combo in options:
        first = combo[0]
        conds = [p.guard for p in combo]
        for p in combo[1:]:
            if len(p.ident) != len(first.ident):
                conds = [z3.BoolVal(False)]
                break
            conds.extend(x == y for x, y in zip(p.ident, first.ident, strict=True))
        parts.append(mk_and(*conds))
    return z3.Or(*parts) if parts else z3.BoolVal(False)


def _col_match(p: Any, col: ColumnV) -> bool:
    return bool(p.field == col.field and (p.schema == col.schema or p.schema.rsplit(".", 1)[-1] ==
                                          col.schema.rsplit(".", 1)[-1]))


def _prov_single(value: Any, col: ColumnV) -> Any:
    if not isinstance(value, Tagged):
        return z3.BoolVal(False)
    parts = [p.guard for p in value.prov if _col_match(p, col)]
    return z3.Or(*parts) if parts else z3.BoolVal(False)


def membership(ex: SymbolicExecutor, item: Any, coll: Any) -> Any:
    coll = val(coll)
    if is_str(coll):
        it = val(item)
        return z3.Contains(coll, it)
    if isinstance(coll, ListV):
        return contains(coll, item, ex.ctx.fresh_bool)
    if isinstance(coll, DictV):
        found, _ = dict_lookup(coll, item)
        return found
    if isinstance(coll, TDictV):
        if coll.has is None:
            return ex.ctx.fresh_bool("in")
        return z3.Select(coll.has, dict_key(coll, item))
    if isinstance(coll, TListV):
        # Abstract membership with a witness: when it holds, some element equals the item.
        flag = ex.ctx.fresh_bool("in")
        j = ex.ctx.fresh(z3.IntSort(), "in_witness")
        ex.ctx.assume(z3.Implies(flag, z3.And(j >= 0, j < coll.length, eq(coll.elem(j), item,
                                                                           ex.ctx.fresh_bool))))
        return flag
    raise Unsupported("`in` on this value")


