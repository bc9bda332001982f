"""The project-relative path grammar of the filesystem library (05 §11.1), checked before a run.

The demo refuses a bad path itself, with the rule in words, so nothing reaches the bridge.
"""

from __future__ import annotations

PATH_RULE = (
    "Paths must be relative to the project folder (for example notes/groceries.txt): no leading /, "
    "no empty, . or .. segments, no backslash, at most 4,096 bytes. Nothing ran."
)


class PathRuleError(ValueError):
    """The text is not a project-relative path; the message explains the rule."""


def canonical_path(text: str, *, directory: bool) -> str:
    """Return the canonical form of ``text`` (no leading ``./``, no trailing ``/``; ``.`` = root)."""
    raw = text
    if not 1 <= len(raw.encode("utf-8")) <= 4096 or "\\" in raw or "\x00" in raw or raw.startswith("/"):
        raise PathRuleError(PATH_RULE)
    if raw in (".", "./"):
        if directory:
            return "."
        raise PathRuleError(PATH_RULE)
    body = raw[2:] if raw.startswith("./") else raw
    if body.endswith("/"):
        if not directory:
            raise PathRuleError(PATH_RULE)
        body = body[:-1]
    segments = body.split("/")
    for segment in segments:
        if segment in ("", ".", "..") or len(segment.encode("utf-8")) > 255:
            raise PathRuleError(PATH_RULE)
    return "/".join(segments)
