"""Text a program derives from its own literals without the prover folding it (issue 20 red team, w2).

Where a protected value is computed on a path the prover cannot fold to one literal (it depends on what was
read), the card classifies the program's literals instead. A link hidden as ``"wwwXsecure-systems-252Xcom"``
and rewritten by ``.replace("X", ".")``, or spelt as a list of character codes, is in no literal. This module
derives those texts: every literal rewritten by each constant ``replace`` pair the program holds (chained),
and every list of integer constants decoded as character codes, with each constant offset a ``chr()`` call
adds. It cannot follow arbitrary computation (a value recomputed character by character from arithmetic): a
program that calls ``chr`` at all is said to build text from character codes, a card warning. Expressions of
constants alone the card folds itself (:func:`folded_constants`): ``'{}-{}.com'.format('secure', 'systems')``,
``f"{'secure'}-{252}.com"``, ``'.'.join(['www', 'x', 'com'])``, ``{'a': 'x.com'}['a']``, ``str(4815162341 + 1)``.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from typing import Any

from clauz3.approvals.errors import ApprovalError

MAX_DERIVED = 512  # derived texts per program
MAX_DERIVED_CHARS = 200_000
MIN_CODES = 4  # a list of fewer integer constants is no hidden text worth decoding


def _rewrites(tree: ast.AST) -> list[tuple[str, str]]:
    pairs: dict[tuple[str, str], None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
                and len(node.args) >= 2:
            old, new = (a.value if isinstance(a, ast.Constant) else None for a in node.args[:2])
            if isinstance(old, str) and isinstance(new, str) and old:
                pairs[(old, new)] = None
    return list(pairs)


def calls_chr(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "chr" for n in ast.walk(tree))


def _offsets(tree: ast.AST) -> set[int]:
    out = {0}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "chr" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add | ast.Sub):
                for side in (arg.left, arg.right):
                    if isinstance(side, ast.Constant) and isinstance(side.value, int) and abs(side.value) < 0x110000:
                        out.add(side.value if isinstance(arg.op, ast.Add) else -side.value)
    return out


def _code_texts(tree: ast.AST) -> list[str]:
    offsets = _offsets(tree)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple) and len(node.elts) >= MIN_CODES:
            codes = [e.value for e in node.elts if isinstance(e, ast.Constant) and type(e.value) is int]
            if len(codes) < len(node.elts):  # not every element an integer constant: no list of codes
                continue
            for k in sorted(offsets):
                if all(0 <= c + k < 0x110000 for c in codes):
                    out.append("".join(chr(c + k) for c in codes))
    return out


def derived_literals(tree: ast.AST, literals: list[str]) -> list[str]:
    """Texts the program may build from ``literals`` that no literal holds (see the module's docstring)."""
    pairs = _rewrites(tree)
    out: dict[str, None] = {}
    seen = set(literals)
    frontier = list(dict.fromkeys(literals))
    for _ in range(max(1, len(pairs))):  # a chain of n rewrites needs n rounds
        nxt: list[str] = []
        for text in frontier:
            for old, new in pairs:
                if old in text:
                    done = text.replace(old, new)
                    if done not in seen:
                        seen.add(done)
                        out[done] = None
                        nxt.append(done)
                if len(out) >= MAX_DERIVED:
                    return list(out)
        frontier = nxt
    if calls_chr(tree):
        for text in _code_texts(tree):
            out.setdefault(text, None)
    for text in folded_constants(tree):  # str.format, f-strings, joins, lookups, arithmetic of constants (rt20)
        if text not in seen:
            out.setdefault(text, None)
    total = 0
    kept: list[str] = []
    for text in list(out)[:MAX_DERIVED]:
        total += len(text)
        if total > MAX_DERIVED_CHARS:
            break
        kept.append(text)
    return kept


MAX_FOLDED_CHARS = 10_000  # a constant expression folding to more text is not followed
MAX_FOLDED_INT = 10 ** 40
_ARITH: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod}
_STR_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title", "capitalize"})


class _Unfoldable(ApprovalError):
    """An expression the card does not fold (raised and caught inside :func:`folded_constants`)."""

    def __init__(self) -> None:
        super().__init__("not_folded", "an expression of constants the card does not fold")


_WIDE = re.compile(r"\d{4,}")  # a width or precision of 1000 or more: no value, a way to exhaust memory
_NESTED_FIELD = re.compile(r"\{[^{}]*\{")  # a replacement field whose spec holds another field


def _fmt(text: object) -> str:
    if not isinstance(text, str) or _WIDE.search(text):
        raise _Unfoldable
    return text


def _small(value: object) -> object:
    if isinstance(value, str) and len(value) > MAX_FOLDED_CHARS:
        raise _Unfoldable
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_FOLDED_INT:
        raise _Unfoldable
    return value


def _fold(node: ast.AST) -> object:
    """The value of an expression of constants alone (str, int, float, lists, tuples, dicts of them), or raise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_fold(e) for e in node.elts]
    if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        return {_fold(k): _fold(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]  # keys not None
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                spec = "" if v.format_spec is None else _fmt(_fold(v.format_spec))
                parts.append(format(_fold(v.value), spec))
            else:
                parts.append(str(_fold(v)))
        return _small("".join(parts))
    if isinstance(node, ast.BinOp):
        left, right = _fold(node.left), _fold(node.right)
        if isinstance(node.op, ast.Mod) and isinstance(left, str):
            if "*" in left:
                raise _Unfoldable  # '%*d' % (10**9, 1): a width taken from an argument
            return _small(_fmt(left) % (tuple(right) if isinstance(right, list) else right))
        op = _ARITH.get(type(node.op))
        if op is None or (isinstance(node.op, ast.Mult) and not all(isinstance(x, int | float) for x in (left, right))):
            raise _Unfoldable  # no "x" * 10**9
        return _small(op(left, right))
    if isinstance(node, ast.Subscript):
        return _small(_fold(node.value)[_fold(node.slice)])  # type: ignore[index]  # bad index: caught
    if isinstance(node, ast.Slice):
        return slice(*(None if x is None else _fold(x) for x in (node.lower, node.upper, node.step)))
    if isinstance(node, ast.Call) and not node.keywords:
        args = [_fold(a) for a in node.args]
        if isinstance(node.func, ast.Name) and node.func.id in ("str", "int") and len(args) == 1:
            return _small(str(args[0]) if node.func.id == "str" else int(args[0]))  # type: ignore[call-overload]  # caught
        if isinstance(node.func, ast.Attribute):
            owner = _fold(node.func.value)
            if isinstance(owner, str) and node.func.attr == "join" and len(args) == 1 and isinstance(args[0], list):
                return _small(owner.join(str(a) for a in args[0]))
            if isinstance(owner, str) and node.func.attr == "format":
                if _NESTED_FIELD.search(owner):
                    raise _Unfoldable  # '{:{}}'.format('a', 10**9): a width taken from an argument
                return _small(_fmt(owner).format(*args))
            if isinstance(owner, str) and node.func.attr in _STR_METHODS and not args:
                return getattr(owner, node.func.attr)()
    raise _Unfoldable


def folded_constants(tree: ast.AST) -> list[str]:
    """The text of every expression of the program built of constants alone that is no constant itself, outermost
    first (where a protected value is computed on an unfoldable path, these are the pieces it may be built of)."""
    out: dict[str, None] = {}
    inside: set[int] = set()
    for node in ast.walk(tree):  # breadth first: an expression before its parts
        if id(node) in inside or isinstance(node, ast.Constant) or not isinstance(node, ast.expr):
            continue
        if not isinstance(node, ast.BinOp | ast.JoinedStr | ast.Call | ast.Subscript):
            continue
        if isinstance(node, ast.JoinedStr) and not any(isinstance(v, ast.FormattedValue) for v in node.values):
            continue  # a format spec (or an f-string without fields): its text is a literal already
        try:
            value = _fold(node)
        except Exception:  # any failure to fold constants (a TypeError, a KeyError…) means: not followed
            continue
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            out.setdefault(str(value), None)
            inside.update(id(n) for n in ast.walk(node))
        if len(out) >= MAX_DERIVED:
            break
    return list(out)
