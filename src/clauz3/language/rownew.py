"""``Item(name="apple", count=3)`` in a program: a row of a declared schema to pass to an effect.

Keyword arguments only, every field exactly once, each of the field's type, as ``clauz3.Row``
requires; the row is immutable, so building one has no aliasing to model.
"""

from __future__ import annotations

import ast
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.body import Body, Expressions


def row_new(body: Body, exprs: Expressions, node: ast.Call, key: str, spelled: str) -> Any:
    line, col = body.loc(node)
    body.ctx.ensure_row(key)
    schema = body.ctx.rows.get(key)
    if schema is None:
        return body.err(node, "unsupported-call", f"row `{spelled}` has no readable schema",
                        "rows come from trusted results")
    names = [f for f, _ in schema.fields]
    example = ", ".join(f"{f}=…" for f in names)
    if node.args or any(k.arg is None for k in node.keywords):
        return body.err(node, "type-error", f"row `{spelled}` takes keyword arguments only",
                        f"write {spelled}({example})")
    given = [k.arg for k in node.keywords]
    missing = [f for f in names if f not in given]
    unknown = [g for g in given if g not in names]
    if unknown:
        return body.err(node, "type-error", f"row `{spelled}` has no field `{unknown[0]}`", f"its fields: {example}")
    if missing:
        return body.err(node, "type-error", f"row `{spelled}` needs field `{missing[0]}`",
                        f"give every field: {spelled}({example})")
    types = dict(schema.fields)
    fields = []
    for k in node.keywords:
        assert k.arg is not None
        value = exprs.expr(k.value)
        # Exact scalar types: clauz3.Row refuses a bool for an int field (type(value) is int).
        if not T.is_err(value.type) and value.type != types[k.arg]:
            return body.err(k.value, "type-error", f"field `{k.arg}` of `{spelled}` must be "
                            f"{T.show(types[k.arg])}, got {T.show(value.type)}")
        fields.append((k.arg, value))
    if any(T.is_err(v.type) for _, v in fields):
        return ir.Const(None, T.ERR, line, col)
    return ir.RowNew(key, tuple(fields), ir.TRow(key), line, col)
