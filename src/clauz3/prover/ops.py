"""Operators of the subset with Python semantics: arithmetic, comparison, subscripts, iteration."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover.logic import mk_and, z3_true
from clauz3.prover.state import SymbolicExecutor
from clauz3.prover.values import (
    NONE_V,
    ColumnV,
    DictV,
    ListV,
    MixedV,
    NoneV,
    OpaqueV,
    OptV,
    Prov,
    Tagged,
    TDictV,
    TListV,
    Unsupported,
    check,
    contains,
    dict_lookup,
    dict_visible,
    eq,
    f64,
    float_lit,
    int_to_float,
    is_bool,
    is_float,
    is_int,
    is_str,
    length,
    merge_many,
    raw,
    rne,
    str_lit,
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
        return v.as_long()
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


# -------------------------------------------------------------------------------- comparison


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
    return p.field == col.field and (p.schema == col.schema or p.schema.rsplit(".", 1)[-1] ==
                                     col.schema.rsplit(".", 1)[-1])


def _prov_single(value: Any, col: ColumnV) -> Any:
    if not isinstance(value, Tagged):
        return z3.BoolVal(False)
    parts = [p.guard for p in value.prov if _col_match(p, col)]
    return z3.Or(*parts) if parts else z3.BoolVal(False)


def dict_key(d: TDictV, key: Any) -> Any:
    """``key`` as a term of a trusted dict's key sort, or Unsupported (a list, an ``object``, another
    type: the interpreter finds nothing there, which this encoding does not say)."""
    k = raw(check(key))
    if isinstance(k, z3.ExprRef) and is_bool(k) and d.has.domain() == z3.IntSort():
        k = to_int(k)  # True == 1: one key
    if not isinstance(k, z3.ExprRef) or k.sort() != d.has.domain():
        raise Unsupported("a key of another type than the trusted dict's keys")
    return k


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


__all__ = ["NONE_V", "OpaqueV", "OptV", "binop", "compare", "iterate", "subscript", "to_str"]
