"""Small z3 helpers: simplifying connectives, truthiness, substitution of loop indices."""

from __future__ import annotations

from functools import cache
from typing import Any

import z3

from clauz3.prover.values import (
    NONE_V,
    DictV,
    ListV,
    MixedV,
    NoneV,
    OptV,
    Prov,
    RecordV,
    RowV,
    Tagged,
    TDictV,
    TListV,
    Unsupported,
    check,
    is_bool,
    is_float,
    is_int,
    is_str,
    length,
    raw,
)


@cache
def z3_true() -> z3.BoolRef:
    """``True`` in z3's main context, made on first use (see :func:`clauz3.prover.values.f64`)."""
    return z3.BoolVal(True)


@cache
def z3_false() -> z3.BoolRef:
    """``False`` in z3's main context, made on first use."""
    return z3.BoolVal(False)




def mk_and(*parts: Any) -> z3.BoolRef:
    out = []
    for p in parts:
        if z3.is_false(p):
            return z3_false()
        if z3.is_true(p):
            continue
        out.append(p)
    if not out:
        return z3_true()
    return out[0] if len(out) == 1 else z3.And(*out)


def mk_or(*parts: Any) -> z3.BoolRef:
    out = []
    for p in parts:
        if z3.is_true(p):
            return z3_true()
        if z3.is_false(p):
            continue
        out.append(p)
    if not out:
        return z3_false()
    return out[0] if len(out) == 1 else z3.Or(*out)


def mk_not(p: Any) -> z3.BoolRef:
    if z3.is_true(p):
        return z3_false()
    if z3.is_false(p):
        return z3_true()
    return z3.Not(p)


def truthy(v: Any) -> z3.BoolRef:
    """Python truth value of ``v``."""
    v = check(raw(v))
    if isinstance(v, MixedV):
        return mk_or(*[mk_and(g, truthy(t)) for g, t in v.opts])
    if isinstance(v, NoneV):
        return z3_false()
    if is_bool(v):
        return v
    if is_int(v):
        return v != 0
    if is_float(v):
        return z3.Not(z3.fpIsZero(v))
    if is_str(v):
        return z3.Length(v) > 0
    if isinstance(v, OptV):
        return mk_and(z3.Not(v.is_none), truthy(v.value))
    if isinstance(v, ListV | TListV | DictV | TDictV):
        return length(v) > 0
    if isinstance(v, RowV):
        return z3_true()
    raise Unsupported("truth value of this value")


def conjuncts(e: z3.BoolRef) -> list[z3.BoolRef]:
    if z3.is_and(e):
        out: list[z3.BoolRef] = []
        for ch in e.children():
            out.extend(conjuncts(ch))
        return out
    return [e]


def occurs(e: z3.ExprRef, var: z3.ExprRef) -> bool:
    """Does the constant ``var`` occur in ``e``?"""
    probe = z3.FreshConst(var.sort(), "occ")
    return not z3.substitute(e, (var, probe)).eq(e)


def subst(v: Any, mapping: list[tuple[z3.ExprRef, z3.ExprRef]]) -> Any:
    """Apply a substitution of loop indices to a symbolic value of any shape."""
    if not mapping:
        return v
    if isinstance(v, z3.ExprRef):
        return z3.substitute(v, *mapping)
    if isinstance(v, Tagged):
        return Tagged(subst(v.z, mapping), tuple(
            Prov(subst(p.guard, mapping), p.schema, p.field, tuple(subst(x, mapping) for x in p.ident))
            for p in v.prov))
    if isinstance(v, OptV):
        return OptV(subst(v.is_none, mapping), subst(v.value, mapping))
    if isinstance(v, ListV):
        return ListV([subst(x, mapping) for x in v.items], v.n if isinstance(v.n, int) else subst(v.n, mapping),
                     v.kind)
    if isinstance(v, DictV):
        return DictV([subst(x, mapping) for x in v.keys], [subst(x, mapping) for x in v.vals],
                     [subst(x, mapping) for x in v.present])
    if isinstance(v, RowV):
        return RowV(v.schema, {k: subst(x, mapping) for k, x in v.fields.items()})
    if isinstance(v, RecordV):
        return RecordV({k: subst(x, mapping) for k, x in v.fields.items()})
    if isinstance(v, TListV):
        inner = v.elem
        return TListV(subst(v.length, mapping), lambda i: subst(inner(i), mapping), v.elem_type, v.label, v.kind)
    if v is None or v is NONE_V:
        return v
    return v
