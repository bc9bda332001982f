"""The read-only files panel backend (02 §8): ``GET /api/workspace/files``.

The walk never follows a link: the root is opened ``O_DIRECTORY|O_NOFOLLOW`` and every component
relative to the previous directory fd with ``O_NOFOLLOW|O_NONBLOCK``; the type is checked again
with ``fstat`` after opening, so a component swapped for a link or a FIFO mid-request is refused,
and nothing outside the root is ever read. Devices, FIFOs and sockets are never opened.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from typing import Any

from clauz3.sessions.errors import SessionError

MAX_PATH_BYTES = 4096
MAX_COMPONENTS = 256
MAX_ENTRIES = 2000
PREVIEW_BYTES = 262_144
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

BAD_PATH = "Choose a path inside this workspace."
SYMLINK = "Symbolic links cannot be opened."
GONE = "This file or folder no longer exists."
UNREADABLE = "This file or folder cannot be read."
NOT_REGULAR = "Only regular files can be previewed."


class FilesError(SessionError):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def parse_query(path: str | None, hidden: str | None) -> tuple[list[str], bool]:
    """FILES-1: relative ``/``-separated path; ``hidden`` ∈ {true, false}."""
    if hidden not in (None, "true", "false"):
        raise FilesError(400, "bad_request", "hidden must be true or false.")
    text = path or ""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES or "\\" in text or "\x00" in text:
        raise FilesError(400, "bad_path", BAD_PATH)
    parts = text.split("/") if text else []
    if len(parts) > MAX_COMPONENTS or any(p in ("", ".", "..") for p in parts):
        raise FilesError(400, "bad_path", BAD_PATH)
    return parts, hidden == "true"


def _error(exc: OSError) -> FilesError:
    if exc.errno == errno.ELOOP:
        return FilesError(403, "symlink", SYMLINK)
    if exc.errno == errno.ENOENT:
        return FilesError(404, "gone", GONE)
    return FilesError(403, "unreadable", UNREADABLE)


def _walk_error(exc: OSError, name: str, dir_fd: int) -> FilesError:
    """O_DIRECTORY|O_NOFOLLOW on a link gives ENOTDIR: tell links apart without following them."""
    if exc.errno == errno.ENOTDIR:
        with contextlib.suppress(OSError):
            if stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
                return FilesError(403, "symlink", SYMLINK)
    return _error(exc)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISREG(mode):
        return "file"
    return "unavailable"


def browse(root: str, parts: list[str], hidden: bool) -> dict[str, Any]:
    fds: list[int] = []
    try:
        try:
            fds.append(os.open(root, DIR_FLAGS))
        except OSError as exc:
            raise _error(exc) from None
        for name in parts[:-1]:
            try:
                fd = os.open(name, DIR_FLAGS, dir_fd=fds[-1])
            except OSError as exc:
                raise _walk_error(exc, name, fds[-1]) from None
            fds.append(fd)
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                raise FilesError(403, "unreadable", UNREADABLE)
        rel = "/".join(parts)
        if not parts:
            return _listing(fds[-1], rel, hidden)
        last = parts[-1]
        try:
            before = os.stat(last, dir_fd=fds[-1], follow_symlinks=False)
        except OSError as exc:
            raise _error(exc) from None
        if stat.S_ISLNK(before.st_mode):
            raise FilesError(403, "symlink", SYMLINK)
        if not (stat.S_ISDIR(before.st_mode) or stat.S_ISREG(before.st_mode)):
            raise FilesError(415, "not_regular", NOT_REGULAR)
        flags = DIR_FLAGS if stat.S_ISDIR(before.st_mode) else FILE_FLAGS
        try:
            fd = os.open(last, flags, dir_fd=fds[-1])
        except OSError as exc:
            raise _walk_error(exc, last, fds[-1]) from None
        fds.append(fd)
        after = os.fstat(fd)
        if stat.S_ISDIR(after.st_mode):
            return _listing(fd, rel, hidden)
        if not stat.S_ISREG(after.st_mode):
            raise FilesError(415, "not_regular", NOT_REGULAR)
        return _file(fd, rel, after.st_size)
    finally:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def _listing(fd: int, rel: str, hidden: bool) -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    truncated = False
    try:
        names = os.listdir(fd)
    except OSError as exc:
        raise _error(exc) from None
    for name in names:
        if name.startswith(".") and not hidden:
            continue
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError:
            continue  # vanished mid-scan
        shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        kind = _kind(st.st_mode) if shown == name else "unavailable"
        entries.append({"name": shown, "kind": kind, "size": st.st_size if kind == "file" else None})
    entries.sort(key=lambda e: (e["kind"] != "directory", e["name"].casefold(), e["name"]))
    if len(entries) > MAX_ENTRIES:
        entries = entries[:MAX_ENTRIES]
        truncated = True
    return {"kind": "directory", "path": rel, "entries": entries, "truncated": truncated}


def _file(fd: int, rel: str, size: int) -> dict[str, Any]:
    chunks: list[bytes] = []
    total = 0
    while total <= PREVIEW_BYTES:
        try:
            chunk = os.read(fd, PREVIEW_BYTES + 1 - total)
        except OSError as exc:
            raise _error(exc) from None
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    data = b"".join(chunks)
    truncated = len(data) > PREVIEW_BYTES or size > PREVIEW_BYTES
    data = data[:PREVIEW_BYTES]
    return {"kind": "file", "path": rel, "size": size, "content": decode_preview(data, truncated),
            "truncated": truncated}


def decode_preview(data: bytes, truncated: bool) -> str | None:
    """UTF-8 text or None; a code point cut by the size limit is dropped (FILES-4)."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if truncated and exc.reason == "unexpected end of data" and exc.start >= len(data) - 3:
            try:
                return data[: exc.start].decode("utf-8")
            except UnicodeDecodeError:
                return None
        return None
