"""Validated path values and the path predicates (01 ROW-3, PUB-2; grammar of 05 §11.1).

A path is relative to the project root: 1–4,096 UTF-8 bytes, segments ≤ 255 bytes, an optional
leading ``./``, no leading ``/``, empty segment, ``.`` segment (except that leading one), ``..``
segment, backslash or NUL. A ``FilePath`` may also be absolute (``/var/data/app.db``: a file
anywhere, such as a database file), with the same segment rules. The canonical form drops the leading ``./`` and a trailing ``/``;
``.`` is the root. A ``FilePath`` is not the root and is not written with a trailing ``/``.
"""

from __future__ import annotations

from clauz3.vocabulary.path_safety import (
    has_no_parent_segments,
    is_plain_path,
    is_single_path_component,
    url_has_no_parent_segments,
)

__all__ = [
    "DirectoryPath",
    "FilePath",
    "canonical_path",
    "has_no_parent_segments",
    "is_plain_path",
    "is_single_path_component",
    "path_error",
    "url_has_no_parent_segments",
]

MAX_BYTES = 4096
MAX_SEGMENT_BYTES = 255


def path_error(text: str, *, directory: bool) -> str | None:
    """Why ``text`` is not a valid path of the grammar (None when it is)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size == 0:
        return "empty path"
    if size > MAX_BYTES:
        return f"longer than {MAX_BYTES} bytes ({size})"
    if "\x00" in text:
        return "contains NUL"
    if "\\" in text:
        return "contains a backslash"
    if text.startswith("/"):
        # A file anywhere (a database file, 00 issue 10): absolute, with the same segment rules.
        # Directories stay project-relative: scopes such as only_write_under are about the project.
        if directory:
            return "absolute path (leading '/')"
        if text == "/":
            return "'/' is a directory"
        body = text[1:]
    elif text in (".", "./"):
        return None if directory else "'.' is a directory"
    else:
        body = text[2:] if text.startswith("./") else text
    if text.endswith("/"):
        if not directory:
            return "ends with '/'"
        body = body[:-1]
    if body == "":
        return "empty segment"
    for segment in body.split("/"):
        if segment == "":
            return "empty segment"
        if segment == ".":
            return "'.' segment"
        if segment == "..":
            return "'..' segment"
        seg_bytes = len(segment.encode("utf-8", "surrogatepass"))
        if seg_bytes > MAX_SEGMENT_BYTES:
            return f"segment longer than {MAX_SEGMENT_BYTES} bytes ({seg_bytes})"
    return None


def canonical_path(text: str) -> str:
    """Canonical form of a valid path: no leading ``./``, no trailing ``/``; the root is ``.``."""
    body = text[2:] if text.startswith("./") else text
    if body.endswith("/"):
        body = body[:-1]
    return body or "."


class _TypedPath(str):
    __slots__ = ()
    _directory = False

    def __new__(cls, text: str) -> _TypedPath:
        if not isinstance(text, str):
            raise TypeError(f"{cls.__name__} takes a str, not {type(text).__name__}")
        reason = path_error(str(text), directory=cls._directory)
        if reason is not None:
            raise ValueError(f"invalid {cls.__name__}: {reason}")
        return super().__new__(cls, canonical_path(str(text)))

    @property
    def value(self) -> str:
        """The canonical text as a plain ``str`` (layers written for the vocabulary read ``path.value``)."""
        return str.__str__(self)

    def __repr__(self) -> str:
        import json

        return f"{type(self).__name__}({json.dumps(str(self), ensure_ascii=False)})"

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (type(self), (str(self),))

    def __copy__(self) -> _TypedPath:
        return self

    def __deepcopy__(self, memo: object) -> _TypedPath:
        return self


class FilePath(_TypedPath):
    """A validated relative file path (not the root, not written with a trailing ``/``)."""

    __slots__ = ()
    _directory = False


class DirectoryPath(_TypedPath):
    """A validated relative directory path; ``.`` is the project root."""

    __slots__ = ()
    _directory = True
