"""Reading a source domain without following links, and writing it into staging (05 SRC-3, INS-4).

Each file is opened with ``O_NOFOLLOW`` relative to its directory's descriptor, so a link planted
anywhere under the domain is refused rather than followed. ``__pycache__/`` and ``*.pyc`` are
skipped. Limits apply per plan: ≤ 2,000 files, ≤ 32 MiB, ≤ 8 MiB per file.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from clauz3.layers.liberrors import LibraryError

MAX_FILES = 2000
MAX_TOTAL_BYTES = 32 * 1024 * 1024
MAX_FILE_BYTES = 8 * 1024 * 1024
# Files the install pipeline writes itself; a source's own copies (e.g. in a backup) are not carried over.
GENERATED = (".clauz3-origin.json", ".clauz3-package.yaml")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class FileEntry:
    rel: str  # POSIX path relative to the domain directory
    data: bytes
    executable: bool


@dataclass
class Budget:
    """Running totals across every domain of one plan (SRC-3 limits are per plan)."""

    files: int = 0
    total: int = 0
    over: list[str] = field(default_factory=list)

    def add(self, path: Path, size: int) -> None:
        if size > MAX_FILE_BYTES:
            raise LibraryError(f"{path}: {size} bytes, more than the {MAX_FILE_BYTES}-byte limit per file",
                               "invalid_library")
        self.files += 1
        self.total += size
        if self.files > MAX_FILES:
            raise LibraryError(f"the plan has {self.files} files, more than the limit of {MAX_FILES}",
                               "invalid_library")
        if self.total > MAX_TOTAL_BYTES:
            raise LibraryError(f"the plan has {self.total} bytes, more than the limit of {MAX_TOTAL_BYTES}",
                               "invalid_library")


def _special(source: str, path: Path) -> LibraryError:
    return LibraryError(f"{source}: link or special file at {path}", "invalid_library")


def read_domain(domain_dir: Path, source: str, budget: Budget | None = None) -> list[FileEntry]:
    """Every regular file of ``domain_dir`` (sorted by path bytes); links and special files are refused."""
    budget = budget or Budget()
    try:
        st = os.lstat(domain_dir)
    except OSError as exc:
        raise LibraryError(f"{source}: cannot read {domain_dir}: {exc.strerror or exc}", "invalid_library") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _special(source, domain_dir)
    out: list[FileEntry] = []
    try:
        top = os.open(domain_dir, _DIR_FLAGS)
    except OSError as exc:
        raise LibraryError(f"{source}: cannot open {domain_dir}: {exc.strerror or exc}", "invalid_library") from None
    try:
        _walk(top, domain_dir, "", source, budget, out, depth=0)
    finally:
        os.close(top)
    out.sort(key=lambda f: f.rel.encode("utf-8", "surrogateescape"))
    return out


def _walk(dir_fd: int, path: Path, prefix: str, source: str, budget: Budget, out: list[FileEntry],
          depth: int) -> None:
    if depth > 32:
        raise LibraryError(f"{source}: folders nested too deeply at {path}", "invalid_library")
    for name in sorted(os.listdir(dir_fd)):
        full = path / name
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            if name == "__pycache__":
                continue
            try:
                sub = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
            except OSError:
                raise _special(source, full) from None
            try:
                _walk(sub, full, f"{prefix}{name}/", source, budget, out, depth + 1)
            finally:
                os.close(sub)
            continue
        if not stat.S_ISREG(st.st_mode):
            raise _special(source, full)
        if name.endswith(".pyc") or (not prefix and name in GENERATED):
            continue
        budget.add(full, st.st_size)
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
        except OSError as exc:
            raise LibraryError(f"{source}: cannot read {full}: {exc.strerror or exc}", "invalid_library") from None
        with os.fdopen(fd, "rb") as fh:
            fst = os.fstat(fh.fileno())
            if not stat.S_ISREG(fst.st_mode) or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
                raise _special(source, full)  # swapped between the listing and the open
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise LibraryError(f"{full}: more than the {MAX_FILE_BYTES}-byte limit per file", "invalid_library")
        out.append(FileEntry(f"{prefix}{name}", data, bool(st.st_mode & 0o111)))


def write_file(path: Path, data: bytes, executable: bool = False) -> None:
    """Create a new private file (0600, or 0700 when executable so the tree hash keeps the bit)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    mode = 0o700 if executable else 0o600
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    with os.fdopen(fd, "wb") as fh:
        os.fchmod(fh.fileno(), mode)  # the umask must not drop the executable bit the tree hash records
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def write_domain(dest: Path, files: list[FileEntry]) -> None:
    dest.mkdir(parents=True, exist_ok=True, mode=0o700)
    for entry in files:
        write_file(dest / entry.rel, entry.data, entry.executable)


def file_hashes(domain_dir: Path, skip: tuple[str, ...] = GENERATED) -> dict[str, str]:
    """``{relative path: sha256}`` of an existing tree (for review change lists); ``{}`` when absent."""
    import hashlib

    if not domain_dir.is_dir() or domain_dir.is_symlink():
        return {}
    return {f.rel: hashlib.sha256(f.data).hexdigest()
            for f in read_domain(domain_dir, str(domain_dir)) if f.rel not in skip}
