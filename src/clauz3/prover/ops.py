"""Operators of the subset with Python semantics: arithmetic, orderings, list appends and ``str()``
(comparisons are ``compare``, subscripts and iteration ``access``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover.logic import mk_and
from clauz3.prover.state import SymbolicExecutor
from clauz3.prover.values import (
    ListV,
    MixedV,
    NoneV,
    Unsupported,
    eq,
    f64,
    float_lit,
    int_to_float,
    is_bool,
    is_float,
    is_int,
    is_str,
    merge_many,
    raw,
    rne,
    to_float,
    to_int,
    val,
    visible,
)


def int_term(n: Any) -> Any:
    return z3.IntVal(n) if isinstance(n, int) else n


def to_index(v: Any) -> Any:
    return to_int(val(v))


def const_int(v: Any) -> int | None:
    v = z3.simplify(to_int(raw(v))) if isinstance(raw(v), z3.ExprRef) else None
    if v is not None and z3.is_int_value(v):
        return int(v.as_long())
    return None


MAX_SSIZE = 2 ** 63 - 1  # sys.maxsize on the 64-bit platforms clauz3 runs on
MAX_SHIFT = 100_000  # as the checker's MAX_INT_EXPONENT: larger shifts are never folded
MAX_ITEMS = 10_000  # a list repeated past this many items is not unrolled
MAX_FOLD_BITS = 4_000_000  # a constant power past this many bits is not folded


def _src(node: Any) -> str:
    return getattr(node, "source", "") or ""


def _operand_detail(expr: ir.Expr | None, value: Any) -> tuple[tuple[str, Any], ...]:
    if isinstance(expr, ir.Name):
        return ((expr.id, value),)
    return ()


def _overflow_check(ex: SymbolicExecutor, node: ir.Expr, v: Any) -> None:
    """``float(int)`` raises OverflowError when the int is too large for binary64."""
    v = raw(v)
    if not is_int(v):
        return
    known = z3.simplify(v)
    if z3.is_int_value(known):
        try:
            float(known.as_long())  # the very conversion the interpreter makes
        except OverflowError:
            ex.exception("OverflowError", node, z3.BoolVal(False), _src(node) or "int to float")
        return
    ex.exception("OverflowError", node, z3.Not(z3.fpIsInf(int_to_float(v))), _src(node) or "int to float",
                 (("value", v),))


def lift(ex: SymbolicExecutor, args: list[Any], fn: Callable[[list[Any]], Any]) -> Any:
    """``fn(args)``, run once per Python type of each path-dependent number (MixedV) under its guard."""
    for k, a in enumerate(args):
        m = raw(a)
        if isinstance(m, MixedV):
            results = []
            for g, alt in m.opts:
                with ex.under(g):
                    results.append((g, lift(ex, [*args[:k], alt, *args[k + 1:]], fn)))
            return merge_many(results)
    return fn(args)


def binop(ex: SymbolicExecutor, node: ir.Expr, op: str, a: Any, b: Any) -> Any:
    return lift(ex, [a, b], lambda xs: _binop(ex, node, op, xs[0], xs[1]))


def _binop(ex: SymbolicExecutor, node: ir.Expr, op: str, a: Any, b: Any) -> Any:
    a, b = val(a), val(b)
    if op == "+" and is_str(a) and is_str(b):
        return z3.Concat(a, b)
    if op == "+" and isinstance(a, ListV) and isinstance(b, ListV):
        out = ListV(list(a.items), a.n, a.kind)
        for i, item in enumerate(b.items):
            out = append_if(out, visible(b, i), item)
        return out
    if op == "*" and (is_str(a) or is_str(b) or isinstance(a, ListV) or isinstance(b, ListV)):
        seq, times = (a, b) if (is_str(a) or isinstance(a, ListV)) else (b, a)
        k = const_int(times)
        if k is not None and not -MAX_SSIZE - 1 <= k <= MAX_SSIZE:
            # CPython: a count that does not fit a C ssize_t is an OverflowError whatever the sequence
            # (`[1] * -(1 << 1100)`, `"" * 10**20`): a fold to the empty sequence would skip the check the
            # general path makes (issue 18, family 6).
            ex.exception("OverflowError", node, z3.BoolVal(False), _src(node) or "… * …", (("count", times),))
            if isinstance(seq, ListV):
                return ListV([], 0, seq.kind)
            return z3.StringVal("")
        if k is not None and k <= 10_000:
            if is_str(seq):
                return z3.Concat(*([seq] * k)) if k > 1 else (seq if k == 1 else z3.StringVal(""))
            if isinstance(seq.n, int) and len(seq.items) * max(k, 0) <= MAX_ITEMS:
                items = seq.items * max(k, 0)
                return ListV(items, len(items), seq.kind)
        if is_str(seq):
            out = ex.ctx.fresh(z3.StringSort(), "strmul", abstract=True)
            t = to_int(times)
            # CPython: OverflowError past sys.maxsize characters (a MemoryError below is a resource limit).
            # A count that does not fit a C ssize_t raises too, whatever the text (even "" * 10**20).
            fits = z3.And(t >= -MAX_SSIZE - 1, t <= MAX_SSIZE)
            ex.exception("OverflowError", node, z3.And(fits, z3.Or(t <= 0, t * z3.Length(seq) <= MAX_SSIZE)),
                         _src(node) or "… * …", (("count", t),))
            ex.ctx.assume(z3.Length(out) == z3.If(t <= 0, 0, t * z3.Length(seq)))
            return out
        raise Unsupported("repeating a list a non-constant number of times")
    if not all(is_bool(x) or is_int(x) or is_float(x) for x in (a, b)):
        raise Unsupported(f"operator {op} on these values")
    if op in ("&", "|", "^", "<<", ">>"):
        return _bitop(ex, node, op, a, b)
    if op == "/" or is_float(a) or is_float(b):
        return _float_op(ex, node, op, a, b)
    x, y = to_int(a), to_int(b)
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if op in ("//", "%"):
        ex.exception("ZeroDivisionError", node, y != 0, _src(node) or f"… {op} …",
                     _operand_detail(getattr(node, "right", None), y))
        q, r = x / y, x % y
        fix = z3.Or(y > 0, r == 0)
        return z3.If(fix, q, q - 1) if op == "//" else z3.If(fix, r, r + y)
    if op == "**":
        k = const_int(y)
        base = const_int(x) if k is not None else None
        if base is not None and k is not None and abs(base).bit_length() * k > MAX_FOLD_BITS:
            # Not folded: the power would be too large to compute at prove time (abstract, no facts).
            return ex.ctx.fresh(z3.IntSort(), "pow", abstract=True)
        if k is not None and 0 <= k <= 64:
            power = z3.IntVal(1)
            for _ in range(k):
                power = power * x
            return z3.simplify(power) if z3.is_int_value(z3.simplify(x)) else power
        res = ex.ctx.fresh(z3.IntSort(), "pow", abstract=True)
        return res
    raise Unsupported(f"operator {op}")


def _bitop(ex: SymbolicExecutor, node: ir.Expr, op: str, a: Any, b: Any) -> Any:
    if op in ("&", "|", "^") and is_bool(a) and is_bool(b):
        # Python: bool & bool is a bool (`str(True & True)` is "True", not "1"), as the checker types it.
        return {"&": z3.And, "|": z3.Or, "^": z3.Xor}[op](a, b)
    x, y = to_int(a), to_int(b)
    cx, cy = const_int(x), const_int(y)
    if cx is not None and cy is not None:
        if op in ("<<", ">>") and cy < 0:
            ex.exception("ValueError", node, z3.BoolVal(False), _src(node) or "negative shift count")
            return z3.IntVal(0)
        if op == "<<" and cy > MAX_SHIFT:
            # The interpreter would build an int of cy bits (a MemoryError or a hang after effects
            # ran); the checker refuses such a literal shift, and a computed one is not folded here.
            raise Unsupported(f"a shift by {cy}, which builds an int too large to compute")
        value = {"&": lambda: cx & cy, "|": lambda: cx | cy, "^": lambda: cx ^ cy,
                 "<<": lambda: cx << cy, ">>": lambda: cx >> cy}[op]()
        return z3.IntVal(value)
    if op in ("<<", ">>") and cy is not None:
        if cy > MAX_SHIFT:
            raise Unsupported(f"a shift by {cy}, which builds an int too large to compute")
        if cy < 0:
            ex.exception("ValueError", node, z3.BoolVal(False), _src(node) or "negative shift count")
            return z3.IntVal(0)
        p = z3.IntVal(2 ** cy)
        if op == "<<":
            return x * p
        return x / p  # z3 div by a positive constant is floor division, as Python's >>
    if op in ("<<", ">>"):
        ex.exception("ValueError", node, y >= 0, _src(node) or "shift", (("shift", y),))
    if op == "<<":
        # CPython: a non-zero int shifted left by a count past a C ssize_t is an OverflowError.
        ex.exception("OverflowError", node, z3.Or(x == 0, y <= MAX_SSIZE), _src(node) or "shift", (("shift", y),))
    return ex.ctx.fresh(z3.IntSort(), "bitop", abstract=True)


def _float_op(ex: SymbolicExecutor, node: ir.Expr, op: str, a: Any, b: Any) -> Any:
    if op == "/" and not is_float(a) and not is_float(b):
        x, y = to_int(a), to_int(b)
        ex.exception("ZeroDivisionError", node, y != 0, _src(node) or "… / …",
                     _operand_detail(getattr(node, "right", None), y))
        exact = z3.fpToFP(rne(), z3.ToReal(x) / z3.ToReal(y), f64())
        # CPython's int / int: an exact zero takes the divisor's sign (`0 / -5` is -0.0, str "-0.0").
        exact = z3.If(z3.And(x == 0, y < 0), z3.fpMinusZero(f64()), exact)
        cx, cy = const_int(x), const_int(y)
        if cx is not None and cy is not None:
            # Known operands: the interpreter's own division decides, and a fold raises exactly what
            # the general path below would (issue 18, family 6: (1 << 1100) / 3 is an OverflowError).
            if cy != 0:
                try:
                    return float_lit(cx / cy)
                except OverflowError:
                    ex.exception("OverflowError", node, z3.BoolVal(False), _src(node) or "… / …")
                    return ex.ctx.fresh(f64(), "div", abstract=True)
            return exact
        ex.exception("OverflowError", node, z3.Or(y == 0, z3.Not(z3.fpIsInf(exact))),
                     _src(node) or "… / …")
        return exact
    for v in (a, b):
        if not is_float(v):
            _overflow_check(ex, node, v)
    fa, fb = to_float(a), to_float(b)
    if op == "+":
        return z3.fpAdd(rne(), fa, fb)
    if op == "-":
        return z3.fpSub(rne(), fa, fb)
    if op == "*":
        return z3.fpMul(rne(), fa, fb)
    if op in ("/", "//", "%"):
        ex.exception("ZeroDivisionError", node, z3.Not(z3.fpIsZero(fb)), _src(node) or f"… {op} …",
                     _operand_detail(getattr(node, "right", None), fb))
        if op == "/":
            return z3.fpDiv(rne(), fa, fb)
        return ex.ctx.fresh(f64(), "fdivmod", abstract=True)
    if op == "**":
        return _float_pow(ex, node, fa, fb)
    raise Unsupported(f"operator {op} on floats")


def _float_pow(ex: SymbolicExecutor, node: ir.Expr, fa: Any, fb: Any) -> Any:
    """``**`` with a float operand, as the interpreter runs it (semantics.power): exact on constants;
    otherwise an abstract float, with the three exceptions as obligations (conservative conditions)."""
    from clauz3.prover.strfold import known_float

    src = _src(node) or "… ** …"
    ca, cb = known_float(fa), known_float(fb)
    if ca is not None and cb is not None:
        try:
            if math.isfinite(ca) and ca < 0 and math.isfinite(cb) and cb != math.floor(cb):
                raise ValueError("negative number cannot be raised to a fractional power")
            return float_lit(ca ** cb)
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            ex.exception(type(exc).__name__, node, z3.BoolVal(False), src)
            return ex.ctx.fresh(f64(), "fpow", abstract=True)

    def finite(v: Any) -> Any:
        return z3.Not(z3.Or(z3.fpIsNaN(v), z3.fpIsInf(v)))

    zero = float_lit(0.0)
    one = float_lit(1.0)
    ex.exception("ZeroDivisionError", node, z3.Not(z3.And(z3.fpIsZero(fa), z3.fpLT(fb, zero))), src)
    integral = z3.fpEQ(z3.fpRoundToIntegral(rne(), fb), fb)
    ex.exception("ValueError", node, z3.Not(z3.And(finite(fa), z3.fpLT(fa, zero), finite(fb), z3.Not(integral))),
                 src)
    size = z3.fpAbs(fa)
    # Sufficient for a result of magnitude <= 1 or a special value: CPython raises OverflowError only
    # when finite operands give a result too large for binary64.
    bounded = z3.Or(z3.fpIsZero(fb), z3.fpEQ(fa, one), z3.Not(finite(fa)), z3.Not(finite(fb)),
                    z3.And(z3.fpLEQ(size, one), z3.fpGEQ(fb, zero)), z3.And(z3.fpGEQ(size, one), z3.fpLEQ(fb, zero)))
    ex.exception("OverflowError", node, bounded, src)
    return ex.ctx.fresh(f64(), "fpow", abstract=True)


def unary(ex: SymbolicExecutor, node: ir.UnaryOp, v: Any) -> Any:
    return lift(ex, [v], lambda xs: _unary(ex, node, xs[0]))


def _unary(ex: SymbolicExecutor, node: ir.UnaryOp, v: Any) -> Any:
    from clauz3.prover.logic import mk_not, truthy

    if node.op == "not":
        return mk_not(truthy(v))
    v = val(v)
    if is_float(v):
        if node.op == "-":
            return z3.fpNeg(v)
        if node.op == "+":
            return v
        raise Unsupported("~ on a float")
    x = to_int(v)
    if node.op == "-":
        return -x
    if node.op == "+":
        return x
    if node.op == "~":
        return -x - 1
    raise Unsupported(f"unary {node.op}")


# -------------------------------------------------------------------------------- order


def order(ex: SymbolicExecutor, op: str, a: Any, b: Any) -> Any:
    a, b = val(a), val(b)
    if is_str(a) and is_str(b):
        if not (z3.is_string_value(a) and z3.is_string_value(b)):
            ex.ctx.order_sensitive = True  # proved only when the constants stay in the BMP (alphabet.py)
        # z3's string order is lexicographic by code point, as Python's is.
        return {"<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: b < a, ">=": lambda: b <= a}[op]()
    if is_float(a) and is_float(b):
        return {"<": z3.fpLT, "<=": z3.fpLEQ, ">": z3.fpGT, ">=": z3.fpGEQ}[op](a, b)
    if is_float(a) or is_float(b):
        if is_float(a):
            flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
            return _int_vs_float(flipped, to_int(b), a)
        return _int_vs_float(op, to_int(a), b)
    if (is_int(a) or is_bool(a)) and (is_int(b) or is_bool(b)):
        x, y = to_int(a), to_int(b)
        return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
    if isinstance(a, ListV) and isinstance(b, ListV) and a.kind == b.kind and a.kind in ("list", "tuple"):
        return _seq_order(ex, op, a, b)
    # Sets, a tuple against a list, None, dicts: a TypeError in the interpreter, which the checker
    # refuses by type; never compared here as sequences (issue 18, family 4).
    raise Unsupported(f"ordering {op} on these values")


def _int_vs_float(op: str, x: Any, f: Any) -> Any:
    """Exact ``x <op> f`` for int x and float f, as Python compares them (no rounding)."""
    xr, fr = z3.ToReal(x), z3.fpToReal(f)
    finite = {"<": xr < fr, "<=": xr <= fr, ">": xr > fr, ">=": xr >= fr}[op]
    at_inf = z3.fpIsPositive(f) if op in ("<", "<=") else z3.fpIsNegative(f)
    return z3.If(z3.fpIsNaN(f), z3.BoolVal(False), z3.If(z3.fpIsInf(f), at_inf, finite))


def _seq_order(ex: SymbolicExecutor, op: str, a: ListV, b: ListV) -> Any:
    if not (isinstance(a.n, int) and isinstance(b.n, int)):
        raise Unsupported("ordering lists of unknown length")
    # Lexicographic: first differing position decides, else the shorter one is smaller.
    result: Any = {"<": z3.BoolVal(a.n < b.n), "<=": z3.BoolVal(a.n <= b.n),
                   ">": z3.BoolVal(a.n > b.n), ">=": z3.BoolVal(a.n >= b.n)}[op]
    for k in reversed(range(min(a.n, b.n))):
        same = eq(a.items[k], b.items[k], ex.ctx.fresh_bool)
        result = z3.If(same, result, order(ex, op, a.items[k], b.items[k]))
    return result


def append_if(lst: ListV, cond: Any, value: Any) -> ListV:
    """``lst`` with ``value`` appended when ``cond`` holds (lengths may become symbolic)."""
    from clauz3.prover.values import merge

    if z3.is_false(cond):
        return lst
    if isinstance(lst.n, int) and lst.n == len(lst.items):
        if z3.is_true(cond):
            return ListV([*lst.items, value], lst.n + 1, lst.kind)
        return ListV([*lst.items, value], z3.If(cond, lst.n + 1, lst.n), lst.kind)
    n = int_term(lst.n)
    items = [merge(mk_and(cond, n == k), value, item) for k, item in enumerate(lst.items)]
    items.append(value)
    return ListV(items, z3.If(cond, n + 1, n), lst.kind)


# ---------------------------------------------------------------------------------- to_str


def to_str(ex: SymbolicExecutor, node: ir.Expr, v: Any) -> Any:
    return lift(ex, [v], lambda xs: _to_str(ex, node, xs[0]))


def _to_str(ex: SymbolicExecutor, node: ir.Expr, v: Any) -> Any:
    v = val(v)
    if is_str(v):
        return v
    if is_bool(v):
        return z3.If(v, z3.StringVal("True"), z3.StringVal("False"))
    if is_int(v):
        return z3.If(v >= 0, z3.IntToStr(v), z3.Concat(z3.StringVal("-"), z3.IntToStr(-v)))
    if isinstance(v, NoneV):
        return z3.StringVal("None")
    if is_float(v):
        from clauz3.prover.strfold import float_text

        text = float_text(v)  # a known float: CPython's repr exactly, as the interpreter prints it
        if text is not None:
            return text
    out = ex.ctx.fresh(z3.StringSort(), "str", abstract=True)
    ex.ctx.assume(z3.Length(out) > 0)
    return out


__all__ = ["append_if", "binop", "lift", "order", "to_str", "unary"]
