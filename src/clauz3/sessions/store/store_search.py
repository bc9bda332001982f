"""Search query building for the conversation store (02 STORE-10). Pure.

User input is never parsed as FTS5 syntax: every whitespace-separated term becomes a quoted
FTS5 string (inner quotes doubled), the last one prefix-matched, all ANDed.
"""

from __future__ import annotations

import re

from clauz3.sessions.errors import SessionError

MAX_QUERY = 200
MAX_RESULTS = 50
# Issue 22: more matching turns than this and the first page comes from the newest matches (a bounded
# scan) instead of ranking every match; at most this many, every match is ranked exactly (bm25).
RECENT_SCAN = 1500
SNIPPET_CHARS = 160


class BadQuery(SessionError, ValueError):
    """The query is empty or longer than 200 characters after trimming (HTTP 400)."""


def terms(query: str) -> list[str]:
    text = query.strip()
    if not 1 <= len(text) <= MAX_QUERY:
        raise BadQuery("Enter a search of 1–200 characters.")
    # A term with no letter or digit yields no token, so it can match nothing: drop it.
    return [term for term in text.split() if re.search(r"\w", term)]


def fts_expression(words: list[str], *, prefix: bool = True) -> str:
    quoted = ['"' + word.replace('"', '""') + '"' for word in words]
    if quoted and prefix:
        quoted[-1] += "*"
    return " ".join(quoted)


def like_pattern(word: str) -> str:
    escaped = word.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def snippet(text: str, words: list[str]) -> str:
    """Plain text around the first matching word, at most 160 characters."""
    flat = " ".join(text.split())
    lower = flat.lower()
    hits = [lower.find(w.lower().strip('"')) for w in words]
    hits = [h for h in hits if h >= 0]
    start = max(0, min(hits) - 40) if hits else 0
    piece = flat[start : start + SNIPPET_CHARS]
    if start > 0:
        piece = "…" + piece[1:]
    if start + SNIPPET_CHARS < len(flat):
        piece = piece[:-1] + "…"
    return piece
