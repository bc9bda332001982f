"""Fresh symbolic values per IR type, with their type-domain facts (lengths ≥ 0) assumed (EFF-4)."""

from __future__ import annotations

from typing import Any

import z3

from clauz3.language import ir
from clauz3.language.types import show  # the Python spelling, never the IR's class names
from clauz3.prover.logic import z3_true
from clauz3.prover.state import CallRecord, SymbolicExecutor
from clauz3.prover.values import (
    NONE_V,
    ListV,
    OpaqueV,
    OptV,
    Prov,
    RowClassV,
    RowV,
    Tagged,
    TDictV,
    TListV,
    Unsupported,
    sort_of,
)


def fresh_value(ex: SymbolicExecutor, t: ir.Type, hint: str, *, label: str = "",
            record: CallRecord | None = None, abstract: bool = False) -> Any:
    """A fresh value of type ``t`` with its type-domain facts assumed (lengths ≥ 0)."""
    ctx = ex.ctx
    if isinstance(t, ir.TScalar):
        if t.name == "None":
            return NONE_V
        return ctx.fresh(sort_of(t), hint, label=label, abstract=abstract)
    if isinstance(t, ir.TOptional):
        inner = fresh_value(ex, t.inner, hint, label=label, abstract=abstract, record=record)
        return OptV(ctx.fresh(z3.BoolSort(), hint + "_none", abstract=abstract), inner)
    if isinstance(t, ir.TTuple) and t.elems is not None:
        items = [fresh_value(ex, et, f"{hint}_{k}", label=label, abstract=abstract, record=record)
                 for k, et in enumerate(t.elems)]
        return ListV(items, len(items), "tuple")
    if isinstance(t, ir.TList | ir.TSet | ir.TTuple):
        elem_t = t.elem
        assert elem_t is not None  # only a tuple of fixed elements lacks one, handled above
        kind = "list" if isinstance(t, ir.TList) else "set" if isinstance(t, ir.TSet) else "tuple"
        n = ctx.fresh(z3.IntSort(), hint + "_len", label=f"len({label})" if label else "")
        ctx.assume(n >= 0)
        elem = _elements(ex, elem_t, hint, record)
        return TListV(n, elem, elem_t, label or hint, kind)
    if isinstance(t, ir.TDict):
        try:
            ks, vs = sort_of(t.key), sort_of(t.value)
        except Unsupported:
            n = ctx.fresh(z3.IntSort(), hint + "_len")
            ctx.assume(n >= 0)
            return TDictV(None, None, n, t.key, t.value, label or hint)
        has = ctx.fresh(z3.ArraySort(ks, z3.BoolSort()), hint + "_has")
        val = ctx.fresh(z3.ArraySort(ks, vs), hint + "_val")
        n = ctx.fresh(z3.IntSort(), hint + "_len")
        ctx.assume(n >= 0)
        return TDictV(has, val, n, t.key, t.value, label or hint)
    if isinstance(t, ir.TRow):
        schema = ex.program.rows.get(t.schema)
        fields = schema.fields if schema else ()
        ident = (z3.IntVal(record.seq if record else 0), *[lp.index for lp in ctx.loops], z3.IntVal(0))
        out = {}
        for fname, ftype in fields:
            v = ctx.fresh(sort_of(ftype), f"{hint}_{fname}")
            out[fname] = Tagged(v, (Prov(z3_true(), t.schema, fname, ident),)) if record else v
        return RowV(t.schema, out)
    if isinstance(t, ir.TObject):
        return OpaqueV(label or hint)
    if isinstance(t, ir.TRowClass):
        return RowClassV(t.schema)
    raise Unsupported(f"a value of type {show(t)}")

def _elements(ex: SymbolicExecutor, elem_t: ir.Type, hint: str, record: CallRecord | None) -> Any:
    ctx = ex.ctx
    if isinstance(elem_t, ir.TRow):
        schema = ex.program.rows.get(elem_t.schema)
        fields = schema.fields if schema else ()
        fns = {fname: ctx.fresh_fn(f"{hint}_{fname}", sort_of(ftype)) for fname, ftype in fields}
        site_id = z3.IntVal(record.seq if record else 0)
        outer = [lp.index for lp in ctx.loops]

        def row(i: Any) -> RowV:
            ident = (site_id, *outer, i)
            return RowV(elem_t.schema, {f: Tagged(fn(i), (Prov(z3_true(), elem_t.schema, f, ident),))
                                        for f, fn in fns.items()})
        return row
    if isinstance(elem_t, ir.TScalar) and elem_t.name != "None":
        fn = ctx.fresh_fn(hint + "_elem", sort_of(elem_t))
        return fn
    if isinstance(elem_t, ir.TScalar):
        return lambda i: NONE_V
    from clauz3.language.types import show

    return lambda i: (_ for _ in ()).throw(Unsupported(f"elements of type {show(elem_t)}"))
