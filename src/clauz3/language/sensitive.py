"""Sensitive values a trusted layer holds (issue 20): digests, never the values, and the substring test.

A guarantee ``no_sensitive_values_in`` keeps only SHA-256 digests of the layer's values (after NFKC and
case folding), grouped by length, so a program's IR, its cache entry, logs and the card never hold
the secret itself. A text contains a value when one of its windows of that length, after the same
normalisation, has the value's digest. Normalising the whole text first (not each window) is the
stricter reading: a value spelled with full-width digits or a ligature is still found.
"""

from __future__ import annotations

import hashlib
import unicodedata

Digests = tuple[tuple[int, tuple[str, ...]], ...]  # (length, sorted digests of values of that length)


def normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def digests(values: tuple[str, ...]) -> Digests:
    by_len: dict[int, set[str]] = {}
    for v in values:
        n = normal(v)
        if n:
            by_len.setdefault(len(n), set()).add(_digest(n))
    return tuple((k, tuple(sorted(by_len[k]))) for k in sorted(by_len))


def contains_sensitive(text: str, table: Digests) -> bool:
    """Whether ``text`` holds any of the values ``table`` digests (substring after NFKC + casefold)."""
    t = normal(text)
    for length, ds in table:
        wanted = set(ds)
        for i in range(len(t) - length + 1):
            if _digest(t[i:i + length]) in wanted:
                return True
    return False
