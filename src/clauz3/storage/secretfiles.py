"""Secret files (03 CRED-3): created O_EXCL|O_NOFOLLOW 0600 in a 0700 directory; refused when loose."""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from clauz3.storage.errors import StorageError

MAX_SECRET_FILE = 64 * 1024


class InsecureFileError(StorageError):
    """The message is the one the commands print: ``insecure permissions on <path>``."""

    code = "insecure_file"

    def __init__(self, path: Path | str, fix: str | None = None) -> None:
        # Issue 22: the message keeps CRED-3's words and adds what to do (the chmod to run).
        super().__init__(f"insecure permissions on {path}" + (f"; {fix}" if fix else ""))
        self.path = str(path)


def _chmod(mode: str, path: Path | str) -> str:
    return f"other users can open it; make it private with: chmod {mode} {shlex.quote(str(path))}"


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` as 0700 if missing; refuse an existing group/other-accessible or symlinked one."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise InsecureFileError(path, "it is a symbolic link or not a folder; use a real folder instead")
    if st.st_mode & 0o077:
        raise InsecureFileError(path, _chmod("700", path))
    return path


def write_secret(path: Path, data: bytes, *, force: bool = False) -> None:
    """Write a new secret file; ``force`` removes an existing regular file (never follows a symlink)."""
    ensure_private_dir(path.parent)
    if force:
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            pass
        else:
            if stat.S_ISDIR(st.st_mode):
                raise InsecureFileError(path)
            os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def read_secret(path: Path) -> bytes:
    """Read a secret file after the CRED-3 checks (symlink, mode, parent directory writability)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        if os.path.islink(path):
            raise InsecureFileError(path) from exc
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InsecureFileError(path, "it is not a regular file")
        if st.st_mode & 0o077:
            raise InsecureFileError(path, _chmod("600", path))
        folder = os.path.dirname(os.path.abspath(path)) or "."
        parent = os.stat(folder)
        if parent.st_mode & 0o022:
            raise InsecureFileError(path, f"other users can change its folder; run: chmod go-w {shlex.quote(folder)}")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_SECRET_FILE:
                raise ValueError(f"{path} is too large for a secret file")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
