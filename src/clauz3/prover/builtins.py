"""Proof models of the 01 §3.4 builtins, and ``MODELS``: them and the methods' (``methods``), enumerated by
the parity test. What a model is: ``model``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from clauz3.language import ir
from clauz3.language.digits import INT_DIGIT_LIMIT
from clauz3.prover import access, ops
from clauz3.prover.logic import truthy, z3_true
from clauz3.prover.methods import METHOD_MODELS
from clauz3.prover.model import CallNode, Model, ModelEntry, src_of
from clauz3.prover.state import SymbolicExecutor
from clauz3.prover.values import (
    NONE_V,
    DictV,
    ListV,
    OptV,
    TListV,
    Unsupported,
    check,
    dict_visible,
    f64,
    float_lit,
    int_to_float,
    is_bool,
    is_float,
    is_int,
    is_str,
    length,
    merge,
    raw,
    rne,
    str_lit,
    to_float,
    to_int,
    val,
    visible,
)

# ---------------------------------------------------------------------------------- builtins


def _len(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    return length(val(args[0]))


def _abs(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    v = val(args[0])
    if is_float(v):
        return z3.fpAbs(v)
    x = to_int(v)
    return z3.If(x < 0, -x, x)


def _round(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    """CPython's ``round``: half-to-even to an int; with literal digits, exact on known values."""
    v = val(args[0])
    if len(args) == 1:
        if not is_float(v):
            return to_int(v)
        ex.exception("ValueError", node, z3.Not(z3.fpIsNaN(v)), src_of(node) or "round(…)", (("value", v),))
        ex.exception("OverflowError", node, z3.Not(z3.fpIsInf(v)), src_of(node) or "round(…)", (("value", v),))
        return z3.ToInt(z3.fpToReal(z3.fpRoundToIntegral(rne(), v)))
    digits = z3.simplify(to_int(val(args[1])))
    if not z3.is_int_value(digits):
        raise Unsupported("round() with computed digits")
    n = digits.as_long()
    if not is_float(v):
        x = z3.simplify(to_int(v))
        if n >= 0:
            return x
        if z3.is_int_value(x):
            return z3.IntVal(round(x.as_long(), n))
        return ex.ctx.fresh(z3.IntSort(), "round", abstract=True)
    from clauz3.prover.strfold import known_float

    known = known_float(v)
    src = src_of(node) or "round(…)"
    if known is not None:
        try:
            return float_lit(round(known, n))  # the interpreter's own round
        except OverflowError:  # round(1.5e308, -308): the fold raises what the general path does
            ex.exception("OverflowError", node, z3.BoolVal(False), src, (("value", v),))
            return ex.ctx.fresh(f64(), "round", abstract=True)
    if n < 0:
        # Rounding to a multiple of 10**-n may round past the largest float (OverflowError). Below
        # 1e307 it cannot: the result is 0 or at most |x| + 10**-n / 2 <= 2 * |x| (issue 18, family 6).
        safe = z3.Or(z3.fpIsNaN(v), z3.fpIsInf(v), z3.fpLEQ(z3.fpAbs(v), float_lit(1e307)))
        ex.exception("OverflowError", node, safe, src, (("value", v),))
    # A decimal rounding of an unknown float: nothing is assumed about the result.
    return ex.ctx.fresh(f64(), "round", abstract=True)


def _bool(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    return truthy(args[0]) if args else z3.BoolVal(False)


def _float(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    if not args:
        return float_lit(0.0)
    v = val(args[0])
    if is_float(v):
        return v
    if is_str(v):
        s = z3.simplify(v)
        if z3.is_string_value(s):
            from clauz3.prover.counterexample import string_chars

            try:
                return float_lit(float(string_chars(s)))
            except ValueError:
                ex.exception("ValueError", node, z3.BoolVal(False), src_of(node) or "float(…)")
                return float_lit(0.0)
        flag = ex.ctx.fresh_bool("float_ok")
        ex.exception("ValueError", node, flag, src_of(node) or "float(…)", (("text", v),))
        return ex.ctx.fresh(f64(), "float", abstract=True)
    ops._overflow_check(ex, node, v)
    return int_to_float(v)


def _ord(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    s = val(args[0])
    ex.exception("TypeError", node, z3.Length(s) == 1, src_of(node) or "ord(…)", (("text", s),))
    if not z3.is_string_value(z3.simplify(s)):
        ex.ctx.unicode_sensitive = True
    return z3.StrToCode(s)


def _chr(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    n = to_int(val(args[0]))
    ex.exception("ValueError", node, z3.And(n >= 0, n <= 0x10FFFF), src_of(node) or "chr(…)", (("code", n),))
    c = ops.const_int(n)
    if c is not None and 0 <= c <= 0x10FFFF:
        return str_lit(chr(c))
    ex.ctx.unicode_sensitive = True
    return z3.StrFromCode(n)


def _minmax(which: str) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        if len(args) == 1:
            coll = val(args[0])
            if not isinstance(coll, ListV):
                raise Unsupported(f"{which}() over a collection of unknown length")
            ex.exception("ValueError", node, length(coll) > 0, src_of(node) or f"{which}(…)")
            items = [(visible(coll, k, ex.ctx.fresh_bool), it) for k, it in enumerate(coll.items)]
        else:
            items = [(z3_true(), a) for a in args]
        if not items:
            return ex.fresh_value(node.type, which, abstract=True)
        best = items[0][1]
        for guard, it in items[1:]:
            better = ops.order(ex, ">" if which == "max" else "<", it, best)
            best = merge(z3.And(guard, better), it, best)
        return best
    return model


def _sum(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    coll = val(args[0])
    start = args[1] if len(args) > 1 else kw.get("start", z3.IntVal(0))
    if not isinstance(coll, ListV):
        raise Unsupported("sum() over a collection of unknown length")
    total = raw(start)
    for k, it in enumerate(coll.items):
        total = merge(visible(coll, k, ex.ctx.fresh_bool), ops.binop(ex, node, "+", total, it), total)
    return total


def _int(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    if not args:
        return z3.IntVal(0)
    v = val(args[0])
    if is_bool(v) or is_int(v):
        return to_int(v)
    if is_float(v):
        ex.exception("ValueError", node, z3.Not(z3.fpIsNaN(v)), src_of(node) or "int(…)", (("value", v),))
        ex.exception("OverflowError", node, z3.Not(z3.fpIsInf(v)), src_of(node) or "int(…)", (("value", v),))
        return z3.ToInt(z3.fpToReal(z3.fpRoundToIntegral(z3.RTZ(), v)))
    if is_str(v):
        s = z3.simplify(v)
        if z3.is_string_value(s):
            from clauz3.language.digits import parse_int
            from clauz3.prover.counterexample import string_chars

            try:
                return z3.IntVal(parse_int(string_chars(s)))  # the interpreter's fixed digit limit
            except ValueError:
                ex.exception("ValueError", node, z3.BoolVal(False), src_of(node) or "int(…)")
                return z3.IntVal(0)
        # ASCII digits only (a sufficient condition), at most the 4,300 int(str) accepts.
        digits = z3.And(z3.Length(v) > 0, z3.Length(v) <= INT_DIGIT_LIMIT, z3.StrToInt(v) >= 0)
        ex.exception("ValueError", node, digits, src_of(node) or "int(…)", (("text", v),))
        other = ex.ctx.fresh(z3.IntSort(), "int", abstract=True)
        return z3.If(digits, z3.StrToInt(v), other)
    raise Unsupported("int() of this value")


def _str(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    if not args:
        return z3.StringVal("")
    return ops.to_str(ex, node, args[0])


def _collection(kind: str) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        if kind == "dict":
            if not args:
                return DictV([], [], [])
            src = val(args[0])
            if isinstance(src, DictV):
                return DictV(list(src.keys), list(src.vals), list(src.present))
            if isinstance(src, ListV):
                keys, vals, present = [], [], []
                for k, pair in enumerate(src.items):
                    pair = check(pair)
                    if not (isinstance(pair, ListV) and isinstance(pair.n, int) and pair.n == 2):
                        raise Unsupported("dict() from items that are not pairs")
                    keys.append(pair.items[0])
                    vals.append(pair.items[1])
                    present.append(visible(src, k, ex.ctx.fresh_bool))
                return DictV(keys, vals, present)
            raise Unsupported("dict() from this value")
        if not args:
            return ListV([], 0, kind)
        src = val(args[0])
        if isinstance(src, ListV):
            if src.kind == "set" and kind != "set":
                # Iteration order of a set: keep only visible items, in insertion order.
                out = ListV([], 0, kind)
                for k, it in enumerate(src.items):
                    out = ops.append_if(out, visible(src, k, ex.ctx.fresh_bool), it)
                return out
            return ListV(list(src.items), src.n, kind)
        if isinstance(src, DictV):
            out = ListV([], 0, kind)
            for k in range(len(src.keys)):
                out = ops.append_if(out, dict_visible(src, k), src.keys[k])
            return out
        if is_str(src):
            items = [it for _, it in access.items_of(ex, src)]
            return ListV(items, len(items), kind)
        if isinstance(src, TListV):
            raise Unsupported(f"{kind}() of a trusted collection")
        raise Unsupported(f"{kind}() of this value")
    return model


def _range(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    bounds = [ops.const_int(a) for a in args]
    if any(b is None for b in bounds):
        raise Unsupported("range() with non-constant arguments")
    items = [z3.IntVal(k) for k in range(*(b for b in bounds if b is not None))]  # none is None (tested above)
    return ListV(items, len(items), "list")


def _enumerate(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    src = val(args[0])
    start = ops.const_int(args[1]) if len(args) > 1 else ops.const_int(kw.get("start", z3.IntVal(0)))
    out = ListV([], 0, "list")
    for guard, index, it in access.positions(access.items_of(ex, src), start or 0):
        out = ops.append_if(out, guard, ListV([index, it], 2, "tuple"))
    return out


def _print(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    return NONE_V


def _isclose(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    for arg in (args[0], args[1], *kw.values()):
        ops._overflow_check(ex, node, val(arg))  # an int operand is converted to float first
    a, b = to_float(val(args[0])), to_float(val(args[1]))
    rel = to_float(kw["rel_tol"]) if "rel_tol" in kw else float_lit(1e-09)
    abs_tol = to_float(kw["abs_tol"]) if "abs_tol" in kw else float_lit(0.0)
    ex.exception("ValueError", node, z3.And(z3.Not(z3.fpIsNegative(rel)), z3.Not(z3.fpIsNegative(abs_tol))),
                 src_of(node) or "math.isclose(…)")
    diff = z3.fpAbs(z3.fpSub(rne(), b, a))
    close = z3.Or(z3.fpLEQ(diff, z3.fpAbs(z3.fpMul(rne(), rel, b))), z3.fpLEQ(diff, z3.fpAbs(z3.fpMul(rne(), rel, a))),
                  z3.fpLEQ(diff, abs_tol))
    return z3.If(z3.fpEQ(a, b), z3.BoolVal(True),
                 z3.If(z3.Or(z3.fpIsInf(a), z3.fpIsInf(b)), z3.BoolVal(False), close))


def _isinf(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    v = val(args[0])
    ops._overflow_check(ex, node, v)  # math.isinf(int) converts to float: OverflowError past 2**1024
    return z3.fpIsInf(v) if is_float(v) else z3.BoolVal(False)


def _isnan(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    v = val(args[0])
    ops._overflow_check(ex, node, v)
    return z3.fpIsNaN(v) if is_float(v) else z3.BoolVal(False)


def _rounding(mode: Callable[[], Any], name: str) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        v = val(args[0])
        if not is_float(v):
            return to_int(v)
        ex.exception("ValueError", node, z3.Not(z3.fpIsNaN(v)), src_of(node) or f"math.{name}(…)", (("value", v),))
        ex.exception("OverflowError", node, z3.Not(z3.fpIsInf(v)), src_of(node) or f"math.{name}(…)",
                     (("value", v),))
        return z3.ToInt(z3.fpToReal(z3.fpRoundToIntegral(mode(), v)))
    return model


def _const_float(x: float) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        return float_lit(x)
    return model


MODELS: dict[str, ModelEntry] = {
    "len": ModelEntry(_len, "exact"),
    "abs": ModelEntry(_abs, "exact"),
    "round": ModelEntry(_round, "exact"),
    "bool": ModelEntry(_bool, "exact"),
    "float": ModelEntry(_float, "exact"),
    "ord": ModelEntry(_ord, "exact"),
    "chr": ModelEntry(_chr, "exact"),
    "min": ModelEntry(_minmax("min"), "exact"),
    "max": ModelEntry(_minmax("max"), "exact"),
    "sum": ModelEntry(_sum, "exact"),
    "int": ModelEntry(_int, "exact"),
    "str": ModelEntry(_str, "exact"),
    "list": ModelEntry(_collection("list"), "exact"),
    "set": ModelEntry(_collection("set"), "exact"),
    "dict": ModelEntry(_collection("dict"), "exact"),
    "tuple": ModelEntry(_collection("tuple"), "exact"),
    "range": ModelEntry(_range, "exact"),
    "enumerate": ModelEntry(_enumerate, "exact"),
    "print": ModelEntry(_print, "none"),
    "math.isclose": ModelEntry(_isclose, "exact"),
    "math.isinf": ModelEntry(_isinf, "exact"),
    "math.isnan": ModelEntry(_isnan, "exact"),
    "math.floor": ModelEntry(_rounding(z3.RTN, "floor"), "exact"),
    "math.ceil": ModelEntry(_rounding(z3.RTP, "ceil"), "exact"),
    "math.trunc": ModelEntry(_rounding(z3.RTZ, "trunc"), "exact"),
    "math.inf": ModelEntry(_const_float(float("inf")), "exact"),
    "math.pi": ModelEntry(_const_float(3.141592653589793), "exact"),
    **METHOD_MODELS,
}


def call_builtin(ex: SymbolicExecutor, node: ir.BuiltinCall) -> Any:
    entry = MODELS.get(node.name)
    if entry is None:
        raise Unsupported(f"builtin {node.name}")
    args = [ex.eval(a) for a in node.args]
    kwargs = {k: ex.eval(v) for k, v in node.kwargs}
    return ops.lift(ex, args, lambda xs: entry.fn(ex, node, xs, kwargs))


def call_method(ex: SymbolicExecutor, node: ir.MethodCall) -> Any:
    key = f"{node.receiver}.{node.method}"
    entry = MODELS.get(key)
    if entry is None and node.receiver in ("list", "tuple") and node.method in ("index", "count"):
        entry = MODELS.get(f"list.{node.method}")
    if entry is None:
        raise Unsupported(f"method {key}")
    obj = ex.eval(node.obj)
    args = [obj, *[ex.eval(a) for a in node.args]]
    if key in ("list.append", "list.extend", "set.add"):
        return entry.fn(ex, node, args, {})  # stores the value as it is (a mutation must run once)
    return ops.lift(ex, args, lambda xs: entry.fn(ex, node, xs, {}))


__all__ = ["MODELS", "OptV", "call_builtin", "call_method", "int_to_float", "is_float"]
