"""Sensitive values a trusted layer holds (issue 20): digests, never the values, and the substring test.

A guarantee ``no_sensitive_values_in`` keeps only SHA-256 digests of the layer's values (after NFKC and
case folding), grouped by length, so a program's IR, its cache entry, logs and the card never hold
the secret itself. A text contains a value when one of its windows of that length, after the same
normalisation, has the value's digest. Normalising the whole text first (not each window) is the
stricter reading: a value spelled with full-width digits or a ligature is still found. A value of six or
more letters and digits is also found by them alone (separators, spaces, invisible characters inserted, or
reversed: redteam w2); what no text comparison finds — a value recomputed (base conversion, digits as words,
a part of it) — the monitor cannot see either (docs/decisions.md).
"""

from __future__ import annotations

import hashlib

from clauz3.base.normal import normalise, skeleton

Digests = tuple[tuple[int, tuple[str, ...]], ...]  # (length, sorted digests of values of that length)

# A value of at least this many letters and digits is also found by them alone, forwards and backwards,
# among the text's letters and digits (redteam w2): ``HGK1 3780 3``, ``h-g-k-137803``, a zero-width space
# or a line break inside it, or the value reversed is still the value. Shorter values would match across the
# words of honest text, so they are found as written only.
MIN_SKELETON = 6


def normal(text: str) -> str:
    """NFKC, case-folded, without invisible format characters (zero-width space, soft hyphen, …)."""
    return normalise(text).casefold()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _forms(value: str) -> list[str]:
    forms = [normal(value)]
    bare = skeleton(value)
    if len(bare) >= MIN_SKELETON:
        forms += [bare, bare[::-1]]
    return [f for f in forms if f]


def digests(values: tuple[str, ...]) -> Digests:
    by_len: dict[int, set[str]] = {}
    for v in values:
        for form in _forms(v):
            by_len.setdefault(len(form), set()).add(_digest(form))
    return tuple((k, tuple(sorted(by_len[k]))) for k in sorted(by_len))


def contains_sensitive(text: str, table: Digests) -> bool:
    """Whether ``text`` holds any of the values ``table`` digests: a substring after NFKC + casefold, or the
    value's letters and digits (forwards or backwards) among the text's letters and digits alone."""
    for t, shortest in ((normal(text), 1), (skeleton(text), MIN_SKELETON)):
        for length, ds in table:
            if length < shortest:
                continue
            wanted = set(ds)
            for i in range(len(t) - length + 1):
                if _digest(t[i:i + length]) in wanted:
                    return True
    return False
