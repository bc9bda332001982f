"""A constant of the checked program (``ir.Const``: literals, folded containers, paths, row classes and
columns) as the symbolic value the executor works with."""

from __future__ import annotations

from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover.logic import z3_true
from clauz3.prover.values import NONE_V, ColumnV, DictV, ListV, RowClassV, Unsupported, float_lit, str_lit


def const_value(value: Any, kind: str = "scalar") -> Any:
    if isinstance(value, ir.Const):
        return const_value(value.value, value.kind)
    if kind in ("list", "tuple", "set"):
        items = [const_value(v) for v in value]
        return ListV(items, len(items), kind)
    if kind == "dict":
        keys = [const_value(k) for k, _ in value]
        vals = [const_value(v) for _, v in value]
        return DictV(keys, vals, [z3_true()] * len(keys))
    if kind in ("filepath", "dirpath"):
        return str_lit(str(value))
    if kind == "column":
        return ColumnV(value[0], value[1])
    if kind == "rowclass":
        # A Row class passed as a value (the ``type[T]`` argument deciding a result's rows).
        return RowClassV(str(value))
    if value is None:
        return NONE_V
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    if isinstance(value, float):
        return float_lit(value)
    if isinstance(value, str):
        return str_lit(value)
    if isinstance(value, tuple | list):
        items = [const_value(v) for v in value]
        return ListV(items, len(items), "tuple" if isinstance(value, tuple) else "list")
    if isinstance(value, frozenset | set):
        items = [const_value(v) for v in sorted(value, key=repr)]
        return ListV(items, len(items), "set")
    if isinstance(value, dict):
        keys = [const_value(k) for k in value]
        vals = [const_value(v) for v in value.values()]
        return DictV(keys, vals, [z3_true()] * len(keys))
    if isinstance(value, type):
        return RowClassV(getattr(value, "__qualname__", str(value)))
    raise Unsupported(f"constant {value!r}")
