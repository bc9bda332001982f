"""Advisory file leases under ``<data>/locks/`` (02 STORE-19, STORE-20, PROC-6).

A lease is an exclusive, non-blocking ``flock`` on a 0600 file opened without following links,
held for as long as the object lives. The project lease's file also says who holds it
(``{pid, port, since}``, information only) so a refused launch can name the other tab's URL.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from clauz3.sessions.errors import SessionError


class LeaseHeld(SessionError):
    """Another process holds the lease; ``info`` is its JSON record when readable."""

    def __init__(self, path: Path, info: dict[str, Any] | None) -> None:
        super().__init__(f"{path} is held by another process")
        self.path = path
        self.info = info

    @property
    def port(self) -> int | None:
        port = (self.info or {}).get("port")
        return port if isinstance(port, int) else None


def project_key(project: str) -> str:
    return hashlib.sha256(project.encode("utf-8")).hexdigest()


class Lease:
    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, path: Path, info: dict[str, Any] | None = None) -> Lease:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LeaseHeld(path, _read_info(path)) from None
        except BaseException:
            os.close(fd)
            raise
        if info is not None:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info).encode("utf-8"), 0)
        return cls(path, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire_project_lease(data_dir: Path, project: str, *, port: int | None) -> Lease:
    """STORE-19: ``locks/workspace-<sha256(project)>.lock``; raises :class:`LeaseHeld`."""
    path = data_dir / "locks" / f"workspace-{project_key(project)}.lock"
    return Lease.acquire(path, {"pid": os.getpid(), "port": port, "since": time.time()})


def acquire_conversation_lock(data_dir: Path, conversation_id: str) -> Lease:
    """PROC-6 / 05 TRM-7: ``locks/conversation-<uuid>.lock``; raises :class:`LeaseHeld`."""
    return Lease.acquire(data_dir / "locks" / f"conversation-{conversation_id}.lock")


def _read_info(path: Path) -> dict[str, Any] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as fh:
            info = json.loads(fh.read(4096))
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None
