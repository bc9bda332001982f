"""Domain tree hashes and the library fingerprint (05 INS-7, SEL-7; 01 TL-7).

Tree hash: SHA-256 over ``path NUL sha256(content) NUL executable-bit NUL`` for every regular
file under a domain directory, sorted by relative POSIX path bytes, skipping ``__pycache__/``
and ``*.pyc``; any symlink or special file is an error; an absent directory hashes to
``"missing"``. The fingerprint is the SHA-256 of canonical JSON mapping each selected trusted
root (project-relative) to its domain's tree hash, plus each package ``__init__.py`` between the
import root and the trusted root to its SHA-256.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from clauz3.language._layer_roots import validate_trusted_root
from clauz3.language.errors import LanguageError

MAX_FILES = 2000
MAX_TOTAL_BYTES = 32 * 1024 * 1024
MAX_FILE_BYTES = 8 * 1024 * 1024


class TreeHashError(LanguageError, ValueError):
    """A domain tree that cannot be hashed (link, special file, over a limit)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(domain_dir: Path) -> list[tuple[bytes, Path, os.stat_result]]:
    out: list[tuple[bytes, Path, os.stat_result]] = []
    stack = [domain_dir]
    while stack:
        current = stack.pop()
        with os.scandir(current) as it:
            entries = list(it)
        for entry in entries:
            path = Path(entry.path)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                raise TreeHashError(f"link or special file at {path}", path)
            if stat.S_ISDIR(st.st_mode):
                if entry.name != "__pycache__":
                    stack.append(path)
                continue
            if not stat.S_ISREG(st.st_mode):
                raise TreeHashError(f"link or special file at {path}", path)
            if entry.name.endswith(".pyc"):
                continue
            rel = path.relative_to(domain_dir).as_posix().encode("utf-8", "surrogateescape")
            out.append((rel, path, st))
    out.sort(key=lambda item: item[0])
    return out


def domain_tree_hash(domain_dir: Path, *, exclude: Sequence[str] = ()) -> str:
    """05 INS-7 tree hash of ``tools/<d>/`` (``"missing"`` when absent); ``exclude`` drops relative paths."""
    domain_dir = Path(domain_dir)
    try:
        st = os.lstat(domain_dir)
    except FileNotFoundError:
        return "missing"
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise TreeHashError(f"link or special file at {domain_dir}", domain_dir)
    files = [f for f in _walk(domain_dir) if f[0].decode("utf-8", "surrogateescape") not in exclude]
    if len(files) > MAX_FILES:
        raise TreeHashError(f"{domain_dir}: {len(files)} files, more than {MAX_FILES}", domain_dir)
    total = 0
    digest = hashlib.sha256()
    for rel, path, st in files:
        if st.st_size > MAX_FILE_BYTES:
            raise TreeHashError(f"{path}: {st.st_size} bytes, more than {MAX_FILE_BYTES}", path)
        total += st.st_size
        if total > MAX_TOTAL_BYTES:
            raise TreeHashError(f"{domain_dir}: more than {MAX_TOTAL_BYTES} bytes", domain_dir)
        executable = b"1" if st.st_mode & 0o111 else b"0"
        digest.update(rel + b"\0" + _file_sha256(path).encode() + b"\0" + executable + b"\0")
    return digest.hexdigest()


def _rel(path: Path, project_root: Path) -> str:
    try:
        return path.relative_to(project_root).as_posix()
    except ValueError:
        return path.as_posix()


def fingerprint_entries(trusted_roots: Sequence[Path], project_root: Path) -> dict[str, str]:
    """The mapping SEL-7 hashes; raises TreeHashError for symlinks or unreadable trees."""
    project_root = Path(os.path.abspath(project_root))
    entries: dict[str, str] = {}
    for raw in trusted_roots:
        root = Path(os.path.abspath(raw))
        import_root, domain = validate_trusted_root(root)
        # Every component from the import root down to the trusted root must be a real directory.
        current = import_root
        for part in root.relative_to(import_root).parts:
            current = current / part
            if current.is_symlink():
                raise TreeHashError(f"symlinked library root: {current}", current)
        domain_dir = import_root / "tools" / domain
        entries[_rel(root, project_root)] = domain_tree_hash(domain_dir)
        pkg = import_root
        for part in root.relative_to(import_root).parts[:-1]:
            pkg = pkg / part
            init = pkg / "__init__.py"
            if os.path.lexists(init):
                st = os.lstat(init)
                if not stat.S_ISREG(st.st_mode):
                    raise TreeHashError(f"symlinked or special package initializer: {init}", init)
                entries[_rel(init, project_root)] = _file_sha256(init)
    return entries


def library_fingerprint_raw(trusted_roots: Sequence[Path], project_root: Path) -> str:
    entries = fingerprint_entries(trusted_roots, project_root)
    canonical = json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
