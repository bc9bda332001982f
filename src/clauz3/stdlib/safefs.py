"""Confined file access below a project root (05 FS-1, FS-2, FS-3).

FS-1: every path is opened component by component from a descriptor of the project root with
``O_NOFOLLOW``, so a symbolic link anywhere (including one swapped in after a check) is refused
by the kernel rather than followed. FS-2: mutations under ``.clauz3/``, any ``.git`` segment or a
protected trusted root are refused, as are writes to files with several hard links. FS-3: content
changes go to a temporary sibling that is fsynced and renamed over the target.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager

from clauz3.stdlib.errors import StdlibError
from clauz3.vocabulary.paths import canonical_path, path_error

__all__ = [
    "FsError", "atomic_write", "check_mutable", "default_mode", "lstat_at", "open_dir", "open_parent",
    "open_regular", "project_fd", "segments",
]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class FsError(StdlibError):
    """A refused or failed file operation; the message names the path and is shown to the agent."""


def segments(path: str, *, what: str = "path") -> list[str]:
    """Canonical segments of a project-relative path (``[]`` for the root); invalid text raises."""
    if not isinstance(path, str):
        raise FsError(f"{what} must be a str")
    reason = path_error(path, directory=True)
    if reason is not None:
        raise FsError(f"invalid {what} {path!r}: {reason}")
    canon = canonical_path(path)
    return [] if canon == "." else canon.split("/")


def _kind_name(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "special file"


def _refuse_link_or_special(dirfd: int, name: str, shown: str) -> None:
    try:
        st = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise FsError(f"symbolic link refused: {shown}")
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        raise FsError(f"{_kind_name(st.st_mode)} refused: {shown}")


@contextmanager
def project_fd(root: str) -> Iterator[int]:
    """A descriptor of the project root (the root itself is the operator's choice, not checked)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield fd
    finally:
        os.close(fd)


def _step(dirfd: int, name: str, shown: str) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dirfd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            _refuse_link_or_special(dirfd, name, shown)
            raise FsError(f"not a directory: {shown}") from None
        if exc.errno == errno.ENOENT:
            raise FsError(f"no such directory: {shown}") from None
        raise FsError(f"cannot open {shown}: {exc.strerror}") from None


@contextmanager
def open_dir(rootfd: int, segs: list[str]) -> Iterator[int]:
    """Descriptor of the directory at ``segs`` (walked from ``rootfd`` without following links)."""
    fd = os.dup(rootfd)
    try:
        for i, name in enumerate(segs):
            nxt = _step(fd, name, "/".join(segs[: i + 1]))
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


@contextmanager
def open_parent(rootfd: int, segs: list[str]) -> Iterator[tuple[int, str]]:
    """``(parent descriptor, final name)`` of a non-root path."""
    if not segs:
        raise FsError("the project root itself cannot be used here")
    with open_dir(rootfd, segs[:-1]) as fd:
        yield fd, segs[-1]


def lstat_at(dirfd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dirfd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def open_regular(dirfd: int, name: str, shown: str, flags: int = os.O_RDONLY) -> int:
    """Open an existing regular file without following links and without blocking on FIFOs."""
    try:
        fd = os.open(name, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dirfd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EOPNOTSUPP):
            _refuse_link_or_special(dirfd, name, shown)
        if exc.errno == errno.ENOENT:
            raise FsError(f"no such file: {shown}") from None
        if exc.errno == errno.EISDIR:
            raise FsError(f"is a directory: {shown}") from None
        raise FsError(f"cannot open {shown}: {exc.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise FsError(f"is a directory: {shown}")
        raise FsError(f"{_kind_name(st.st_mode)} refused: {shown}")
    return fd


def is_protected(segs: list[str], protected: tuple[str, ...]) -> bool:
    """FS-2 scope: ``.clauz3/``, any ``.git`` segment, a protected root, or a default trusted-root shape."""
    if not segs:
        return True  # the root itself is never mutated (remove, chmod, move of ".")
    if segs[0] == ".clauz3" or ".git" in segs:
        return True
    text = "/".join(segs)
    for root in protected:
        # A root's ancestors count too: moving or chmod-ing them would displace the trusted code.
        if root == "." or text == root or text.startswith(root + "/") or root.startswith(text + "/"):
            return True
    # Authored libraries (tools/<d>/trusted, tools/<org>/<d>/trusted) are trusted code even when
    # the worker did not name them: editing one would change what later proofs trust.
    if segs[0] == "tools" and (len(segs) <= 3 or "trusted" in segs[2:4]):
        return True
    return False


INTERPRETER_DIRS = ("site-packages", "dist-packages")
INTERPRETER_FILES = ("sitecustomize.py", "usercustomize.py")


def is_interpreter_path(segs: list[str]) -> bool:
    """Issue 19 §4: a file Python runs at start (``*.pth``, ``sitecustomize``/``usercustomize``) or
    anything under a ``site-packages``/``dist-packages`` folder, wherever it is in the project."""
    if not segs:
        return False
    last = segs[-1]
    return last.endswith(".pth") or last in INTERPRETER_FILES or any(s in INTERPRETER_DIRS for s in segs)


def check_mutable(segs: list[str], protected: tuple[str, ...], shown: str) -> None:
    if is_protected(segs, protected):
        raise FsError(f"protected path: {shown}")
    if is_interpreter_path(segs):
        raise FsError(f"protected path: {shown} is an interpreter path (Python runs *.pth files, site-packages "
                      "and sitecustomize.py at start, before any sandbox)")


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def default_mode() -> int:
    """Permission bits of a new file (FS-3): ``0o666 & ~umask``."""
    return 0o666 & ~_umask()


def _temp_name(name: str) -> str:
    suffix = f".clauz3-{secrets.token_hex(4)}.tmp"
    base = name
    while len(("." + base + suffix).encode("utf-8", "surrogatepass")) > 255:
        base = base[:-1]
    return "." + base + suffix


def atomic_write(dirfd: int, name: str, data: bytes, mode: int, shown: str, *, replace: bool = True) -> None:
    """FS-3: stage, write, fsync, chmod, rename over ``name``, fsync the directory.

    With ``replace=False`` the staged file is linked into place instead, which fails if ``name``
    exists (no check-then-rename race). On any failure the temporary file is removed and the
    target is unchanged.
    """
    tmp = _temp_name(name)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dirfd)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fchmod(fd, mode & 0o777)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.rename(tmp, name, src_dir_fd=dirfd, dst_dir_fd=dirfd)
        else:
            os.link(tmp, name, src_dir_fd=dirfd, dst_dir_fd=dirfd, follow_symlinks=False)
            os.unlink(tmp, dir_fd=dirfd)
    except BaseException as exc:
        try:
            os.unlink(tmp, dir_fd=dirfd)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise FsError(f"cannot write {shown}: {exc.strerror or exc}") from None
        raise
    os.fsync(dirfd)
