"""``"literal {}".format(a, b)`` lowered to the f-string it means (one IR, one semantics).

``str.format`` with plain fields calls ``format(value, "")`` on each argument, exactly what an
f-string field does, so the lowering gives the interpreter and the prover the same program they
already agree on. Anything beyond plain positional fields (names, indexing, attributes, format
specs, conversions) is refused with a hint. CPython evaluates every argument once, left to right,
before formatting: the lowering keeps that order, so a field order that differs from the argument
order (or a repeated or unused argument) is accepted only when the arguments are plain names or
literals, whose evaluation has no effect and cannot fail.
"""

from __future__ import annotations

import ast
import string
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.body import Body, Expressions

HINT = "use an f-string, e.g. f\"Hi {name}\""
FIELD_TYPES = (ir.STR, ir.INT, ir.BOOL, ir.FLOAT)


def lower_format(body: Body, exprs: Expressions, node: ast.Call, func: ast.Attribute) -> Any:
    line, col = body.loc(node)
    receiver = func.value
    if not (isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)):
        return body.err(node, "unsupported-call", "`str.format` on a computed string", HINT)
    if node.keywords:
        return body.err(node, "unsupported-call", "keyword arguments to `str.format`", HINT)
    if any(isinstance(a, ast.Starred) for a in node.args):
        return body.err(node, "unsupported-call", "`*args` in a call to `str.format`", HINT)
    try:
        pieces = list(string.Formatter().parse(receiver.value))
    except ValueError as exc:
        return body.err(receiver, "unsupported-expression", f"invalid format string: {exc}")
    order: list[int] = []
    auto = manual = False
    for _, field, spec, conversion in pieces:
        if field is None:
            continue
        if conversion is not None or spec:
            return body.err(receiver, "unsupported-expression",
                            "format spec or conversion in a `str.format` field", HINT)
        if field == "":
            auto = True
            order.append(len(order))
        elif field.isdigit() and field.isascii():
            manual = True
            order.append(int(field))
        else:
            return body.err(receiver, "unsupported-expression", f"format field `{{{field}}}`", HINT)
    if auto and manual:
        return body.err(receiver, "type-error", "`str.format` mixes automatic `{}` and numbered `{0}` fields",
                        "number every field or none")
    if any(k >= len(node.args) for k in order):
        return body.err(node, "type-error", f"`str.format` has {len(order)} field(s) but {len(node.args)} "
                        "argument(s)", "pass one argument per field")
    plain = all(isinstance(a, (ast.Name, ast.Constant)) for a in node.args)
    if order != list(range(len(node.args))) and not plain:
        return body.err(node, "unsupported-call", "`str.format` fields use computed arguments out of order, "
                        "more than once or not at all", "assign each argument to a name first, or use an f-string")
    args = [exprs.expr(a) for a in node.args]
    for a, src in zip(args, node.args, strict=True):
        if not T.is_err(a.type) and a.type not in FIELD_TYPES:
            return body.err(src, "type-error", f"`str.format` field must be str, int, float or bool, got "
                            f"{T.show(a.type)}", "convert the value with str(...) first")
    if any(T.is_err(a.type) for a in args):
        return ir.Const(None, T.ERR, line, col)
    parts: list[Any] = []
    fields = iter(order)
    for text, field, _, _ in pieces:
        if text:
            parts.append(text)
        if field is not None:
            parts.append(args[next(fields)])
    return ir.FString(tuple(parts), ir.STR, line, col)
