"""Which characters a proof's formulas name: may an order between unknown texts be trusted?

z3's strings hold characters up to U+2FFFF; Python's go to U+10FFFF. A proof about unknown text still
covers every run when each run's characters can be renamed into z3's alphabet without changing what
the program sees. For ``==``, ``in``, lengths and digits any injective renaming that fixes the
constants does. For the order of texts (``"0" <= c <= "9"``, ``a < b``) the renaming must also keep
the order: it fixes every character up to U+FFFF and maps the characters above it, in order, into
U+10000…U+2FFFF. That works when no constant of the formulas lies above U+FFFF and a run uses at most
131,072 distinct characters above U+FFFF (docs/semantics.md); otherwise the proof stays unknown.
"""

from __future__ import annotations

from typing import Any

import z3

BMP_LAST = 0xFFFF


class Alphabet:
    """The highest code point of the string constants in formulas (memoized over shared subterms)."""

    def __init__(self) -> None:
        self._memo: dict[int, int] = {}

    def highest(self, parts: list[Any]) -> int:
        from clauz3.prover.counterexample import string_chars

        best = 0
        stack = [p for p in parts if isinstance(p, z3.ExprRef)]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            key = node.get_id()
            if key in seen:
                continue
            seen.add(key)
            if key in self._memo:
                best = max(best, self._memo[key])
                continue
            if z3.is_string_value(node):
                text = string_chars(node)
                self._memo[key] = max(map(ord, text), default=0)
                best = max(best, self._memo[key])
                continue
            if z3.is_app(node) or z3.is_quantifier(node):
                stack.extend(node.children())
        return best

    def order_safe(self, parts: list[Any]) -> bool:
        """Every constant is at most U+FFFF: an order over unknown text is the same in every run."""
        return self.highest(parts) <= BMP_LAST


def with_lazy_facts(parts: list[Any], lazy: list[tuple[Any, Any]]) -> list[Any]:
    """``parts`` plus each lazy fact whose term occurs in them (facts that would slow every obligation
    are given only to those that mention their term; leaving a true fact out is always sound)."""
    if not lazy:
        return parts
    seen: set[int] = set()
    stack = [p for p in parts if isinstance(p, z3.ExprRef)]
    while stack:
        node = stack.pop()
        key = node.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_app(node) or z3.is_quantifier(node):
            stack.extend(node.children())
    return [*parts, *[fact for term, fact in lazy if term.get_id() in seen]]
