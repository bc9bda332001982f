"""Text a program derives from its own literals without the prover folding it (issue 20 red team, w2).

Where a protected value is computed on a path the prover cannot fold to one literal (it depends on what was
read), the card classifies the program's literals instead. A link hidden as ``"wwwXsecure-systems-252Xcom"``
and rewritten by ``.replace("X", ".")``, or spelt as a list of character codes, is in no literal. This module
derives those texts: every literal rewritten by each constant ``replace`` pair the program holds (chained),
and every list of integer constants decoded as character codes, with each constant offset a ``chr()`` call
adds. It cannot follow arbitrary computation (a value recomputed character by character from arithmetic): a
program that calls ``chr`` at all is said to build text from character codes, a card warning.
"""

from __future__ import annotations

import ast

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
    total = 0
    kept: list[str] = []
    for text in list(out)[:MAX_DERIVED]:
        total += len(text)
        if total > MAX_DERIVED_CHARS:
            break
        kept.append(text)
    return kept
