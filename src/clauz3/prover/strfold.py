"""Exact results of str methods and ``str()`` of a float when every input is a known constant.

The interpreter runs these operations on CPython's own ``str``/``float`` (interp/builtins.py), so
computing them here with the same CPython operations gives the interpreter's result exactly. The
one exception is the Unicode database (case mapping and what counts as whitespace), which changes
between Python versions: ``lower``/``upper``/``strip()``/``split()`` are folded only on ASCII text,
where it never changed, and stay abstract otherwise (no proof may depend on the Python version).
"""

from __future__ import annotations

from typing import Any

import z3

from clauz3.prover.values import ListV, NoneV, Unsupported, check, is_float, is_str, str_lit, val

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
