"""A conversation's title from its first turn (issue 22 item 10), without a model.

The first sentence of the first prompt, short; for a prompt that is a program (``Run this program:``
and a fenced block) the program's own summary line (its docstring's first line), else what its run
did (the card's first outcome sentence). Titles stay unique within a project: a repeat gets " (2)".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from clauz3.sessions.conversation.runs import ConversationRun

MAX_CHARS = 60
DEFAULT = "New conversation"
GENERIC_DOCSTRINGS = frozenset({"written by the clauz3 demo agent."})
_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_RUN_THIS = re.compile(r"^(?:please\s+)?run this program(?: as request \S+)?\s*:?\s*$", re.IGNORECASE)
_DOCSTRING = re.compile(r"^\s*(?:[rRuU]?)(\"\"\"|''')\s*(.+?)\s*(?:\1|\n|$)", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:-—") + "…"


def first_sentence(text: str) -> str:
    text = text.strip()
    first = _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    return first.rstrip(".").strip()


def _program_line(code: str, runs: Iterable[ConversationRun]) -> str:
    m = _DOCSTRING.match(code)
    if m is not None:
        line = m.group(2).strip().splitlines()[0].strip() if m.group(2).strip() else ""
        if line and line.lower() not in GENERIC_DOCSTRINGS:
            return line.rstrip(".")
    for run in runs:
        summary = run.record.summary or {}
        sentences = summary.get("sentences") if isinstance(summary, dict) else None
        if isinstance(sentences, list) and sentences and isinstance(sentences[0], str) and sentences[0].strip():
            return first_sentence(sentences[0]) or sentences[0].strip()
    named = re.search(r"^def\s+(?!main\b)([A-Za-z_]\w*)", code, re.MULTILINE)
    return f"Program {named.group(1)}" if named else "A program that did not run"


def title_from(text: str, runs: Iterable[ConversationRun] = ()) -> str:
    """The title of a conversation whose first prompt is ``text`` (``runs``: its first turn's runs)."""
    blocks = _FENCE.findall(text)
    prose = _FENCE.sub(" ", text).strip()
    if blocks and (not prose or _RUN_THIS.match(prose)):
        return shorten(_program_line(blocks[0], runs)) or DEFAULT
    return shorten(first_sentence(prose) or prose) or DEFAULT


def unique(title: str, taken: Collection[str]) -> str:
    """``title``, or ``title (n)`` with the smallest n ≥ 2 not already taken."""
    if title not in taken:
        return title
    n = 2
    while f"{title} ({n})" in taken:
        n += 1
    return f"{title} ({n})"
