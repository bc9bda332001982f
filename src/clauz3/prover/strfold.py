"""Exact results of str methods and ``str()`` of a float when every input is a known constant.

The interpreter runs these operations on CPython's own ``str``/``float`` (interp/builtins.py), so
computing them here with the same CPython operations gives the interpreter's result exactly. The
one exception is the Unicode database (case mapping and what counts as whitespace), which changes
between Python versions: ``lower``/``upper``/``strip()``/``split()`` are folded only on ASCII text,
where it never changed, and stay abstract otherwise (no proof may depend on the Python version).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import z3

from clauz3.prover.values import (
    ListV,
    MixedV,
    NoneV,
    Unsupported,
    check,
    float_lit,
    int_to_float,
    is_bool,
    is_float,
    is_int,
    is_str,
    str_lit,
    to_int,
    val,
)

# Methods whose result does not depend on Unicode tables when every argument is given.
_CODEPOINT_ONLY = frozenset({"replace"})
# Methods that read Unicode tables (case, categories, whitespace): folded on ASCII text only.
_TABLES = frozenset({"lower", "upper", "title", "capitalize", "casefold", "swapcase", "isdigit", "isalpha",
                     "isalnum", "isspace", "islower", "isupper"})


def known_str(v: Any) -> str | None:
    """The text of ``v`` when it is a string constant, else None."""
    v = val(v)
    if not is_str(v):
        return None
    s = z3.simplify(v)
    if not z3.is_string_value(s):
        return None
    from clauz3.prover.counterexample import string_chars

    return string_chars(s)


def known_float(v: Any) -> float | None:
    v = val(v)
    if not is_float(v):
        return None
    f = z3.simplify(v)
    if not z3.is_fp_value(f):
        return None
    from clauz3.prover.counterexample import fp_to_float

    return fp_to_float(f)


def float_text(v: Any) -> z3.SeqRef | None:
    """``str(x)`` of a known float: CPython's repr (shortest round-trip, version-independent)."""
    x = known_float(v)
    return None if x is None else z3.StringVal(repr(x))


def fold_method(method: str, args: list[Any]) -> Any | None:
    """The constant result of ``args[0].method(*args[1:])``, or None when it must stay abstract.

    Only results that are plain text (or a list of texts for ``split``) are returned; CPython
    errors (``split("")``) are left to the abstract model, which raises the same obligation.
    """
    texts: list[str | None] = []
    for a in args:
        if isinstance(check(a), NoneV):
            texts.append(None)
            continue
        t = known_str(a)
        if t is None:
            return None
        texts.append(t)
    receiver = texts[0]
    if receiver is None:
        return None
    given = [t for t in texts if t is not None]
    default_chars = method in ("strip", "lstrip", "rstrip", "split") and (len(texts) == 1 or texts[1] is None)
    if (method in _TABLES or default_chars) and not all(t.isascii() for t in given):
        return None
    if method not in _CODEPOINT_ONLY | _TABLES and method not in ("strip", "lstrip", "rstrip", "split"):
        return None
    try:
        out = getattr(str, method)(receiver, *texts[1:])
    except (ValueError, TypeError):
        return None
    if isinstance(out, bool):
        return z3.BoolVal(out)
    if isinstance(out, list):
        try:
            return ListV([str_lit(x) for x in out], len(out))
        except Unsupported:
            return None
    try:
        return str_lit(out)
    except Unsupported:
        return None


# ------------------------------------------------------------------ f-string fields with a spec

_SPEC = re.compile(r"(?:(?P<fill>[^{}])?(?P<align>[<>^=]))?(?P<sign>[+\- ])?(?P<zero>0)?(?P<width>\d{0,3})"
                   r"(?P<group>[,_])?(?:\.(?P<prec>\d{1,3}))?(?P<type>[a-zA-Z%]?)")
MAX_DIGITS_FACTS = 20  # integer-digit bounds are stated for |x| up to 10**20 (a fallback covers the rest)


def _below(k: int) -> float:
    """The largest float <= 10**k - 1 (so |x| <= it rounds to at most k integer digits)."""
    c = float(10 ** k - 1)
    return math.nextafter(c, 0.0) if c > 10 ** k - 1 else c


def _above(k: int) -> float:
    """The smallest float >= 10**(k-1) + 1 (so |x| >= it rounds to at least k integer digits)."""
    c = float(10 ** (k - 1) + 1)
    return math.nextafter(c, math.inf) if c < 10 ** (k - 1) + 1 else c


def _mentions(formula: Any, term: Any) -> bool:
    """``term`` occurs in ``formula`` (z3 shares equal terms, so ids compare structure)."""
    want, seen, stack = term.get_id(), set(), [formula]
    while stack:
        node = stack.pop()
        key = node.get_id()
        if key == want:
            return True
        if key not in seen:
            seen.add(key)
            stack.extend(node.children() if z3.is_app(node) else [])
    return False


def _digit_count(ex: Any, out: Any, size: Any, mode: str) -> Any:
    """A fresh count of integer digits for a magnitude ``size`` (an int, or a real when not ``exact``):
    at most k when size <= 10**k - 1, at least k when size >= 10**(k-1) + 1, for k up to 20; 1..309
    always (the largest float has 309). Linear facts only: they join every obligation's assumptions."""
    d = ex.ctx.fresh(z3.IntSort(), "int_digits", abstract=True)
    facts = [d >= 1] + ([] if mode == "int" else [d <= 309])
    for k in range(1, MAX_DIGITS_FACTS + 1):
        if mode == "int":
            facts.append(z3.Implies(size <= 10 ** k - 1, d <= k))
            if k >= 2:
                facts.append(z3.Implies(size >= 10 ** (k - 1), d >= k))
        elif mode == "real":
            facts.append(z3.Implies(size <= z3.RealVal(Fraction(_below(k))), d <= k))
            if k >= 2:
                facts.append(z3.Implies(size >= z3.RealVal(Fraction(_above(k))), d >= k))
        else:
            facts.append(z3.Implies(z3.fpLEQ(size, float_lit(_below(k))), d <= k))
            if k >= 2:
                facts.append(z3.Implies(z3.fpGEQ(size, float_lit(_above(k))), d >= k))
    ex.ctx.lazy_facts.append((out, z3.And(*facts)))
    return d


def formatted_unknown(ex: Any, spec: str, v: Any) -> Any:
    """``format(v, spec)`` of an unknown value: a fresh text with the length every such text has.

    ``max(width, len(core))``, where the core of a float with type ``f``/``F`` is a sign, the integer
    digits (bounded by |x|, see :func:`_digit_count`), the grouping separators and ``.`` with
    ``precision`` digits, or ``inf``/``nan``; an int's (``d`` or no type) is its sign, digits and
    separators; a str's is the text cut to the precision (and then it contains the text). Other
    specs stay unknown text. So ``f"{amount:.2f}"`` of an amount in a range has a bounded length.
    """
    out = ex.ctx.fresh(z3.StringSort(), "formatted", abstract=True)
    m = _SPEC.fullmatch(spec)
    v = val(v)
    if m is None or isinstance(v, MixedV):
        return out
    width = int(m["width"]) if m["width"] else 0
    kind = m["type"]
    signed = m["sign"] in ("+", " ")
    group = m["group"] is not None
    if is_str(v) and kind in ("", "s"):
        core: Any = z3.Length(v)
        if m["prec"]:
            p = int(m["prec"])
            core = z3.If(core < p, core, p)
        elif width == 0:
            ex.ctx.lazy_facts.append((out, out == v))
            return out
        else:
            ex.ctx.lazy_facts.append((out, z3.Contains(out, v)))
    elif (is_int(v) or is_bool(v)) and kind in ("", "d"):
        n = to_int(v)
        d = _digit_count(ex, out, z3.If(n < 0, -n, n), "int")
        sign = 1 if signed else z3.If(n < 0, 1, 0)
        core = sign + d + ((d - 1) / 3 if group else 0)
    elif (is_float(v) or is_int(v) or is_bool(v)) and kind in ("f", "F"):
        x = v if is_float(v) else int_to_float(to_int(v))
        p = int(m["prec"]) if m["prec"] else 6
        # Stated in the theory the path already reasons in (the solver is slow mixing them): in reals
        # when the path compares x with ints (ops._int_vs_float), else in floats. ±0.0 may print
        # "-0.00" or "0.00": at zero the sign is left open.
        finite = z3.Not(z3.Or(z3.fpIsNaN(x), z3.fpIsInf(x)))
        r = z3.fpToReal(x)
        zero_sign = ex.ctx.fresh(z3.IntSort(), "zero_sign", abstract=True)
        ex.ctx.lazy_facts.append((out, z3.And(zero_sign >= 0, zero_sign <= 1)))
        if _mentions(ex.pc, r):
            d = _digit_count(ex, out, z3.If(r < 0, -r, r), "real")
            sign = 1 if signed else z3.If(r < 0, 1, z3.If(r == 0, zero_sign, 0))
        else:
            d = _digit_count(ex, out, z3.fpAbs(x), "float")
            sign = 1 if signed else z3.If(z3.fpLT(x, float_lit(0.0)), 1, z3.If(z3.fpIsZero(x), zero_sign, 0))
        number = sign + d + ((d - 1) / 3 if group else 0) + (p + 1 if p > 0 else 0)
        special = (1 if signed else z3.If(z3.fpIsNaN(x), 0, z3.If(z3.fpIsNegative(x), 1, 0))) + 3
        core = z3.If(finite, number, special)
    else:
        return out
    ex.ctx.lazy_facts.append((out, z3.Length(out) == z3.If(core < width, width, core)))
    return out
