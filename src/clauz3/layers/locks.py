"""Non-blocking ``flock`` locks for library operations and the workspace-lease probe (05 INS-8 (2), (5))."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import make_private_dir

BUSY = "Another library change is running for this target; try again when it finishes."
LEASED = ("This project has a running clauz3 workspace; change libraries from its Libraries page or stop it "
          "first.")


def _open(path: Path) -> int:
    make_private_dir(path.parent)
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)


@contextlib.contextmanager
def library_lock(path: Path) -> Iterator[None]:
    """Hold ``locks/libraries-…`` for the block; held elsewhere → busy (exit 5, HTTP 409)."""
    try:
        fd = _open(path)
    except OSError as exc:
        raise LibraryError(f"cannot open lock file {path}: {exc.strerror or exc}", "invalid_request") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LibraryError(BUSY, "busy") from None
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def require_lease_free(path: Path | None) -> None:
    """CLI only: the project's workspace lease must be free (probe and release at once)."""
    if path is None or not path.exists():
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LibraryError(LEASED, "busy") from None
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
