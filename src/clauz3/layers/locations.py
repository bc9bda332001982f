"""Where library state lives: ``<data>``, ``<cache>`` and the project or global target (05 §3, INS-13)."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from clauz3.layers.liberrors import LibraryError

GITIGNORE = (
    "# clauz3: commit tools/ and skills/; everything else here is machine-local\n"
    "__pycache__/\n"
    "*.pyc\n"
    "staging/\n"
    "library-backups/\n"
)


def data_dir() -> Path:
    """05 DATA-1; a relative ``CLAUZ3_HOME`` is an error, a relative ``XDG_DATA_HOME`` is ignored."""
    from clauz3.storage.paths import RelativeHomeError
    from clauz3.storage.paths import data_dir as shared

    try:
        return shared()
    except RelativeHomeError as exc:
        raise LibraryError(str(exc), "invalid_request") from None


def cache_dir() -> Path:
    value = os.environ.get("CLAUZ3_CACHE") or ""
    if value:
        if not os.path.isabs(value):
            raise LibraryError("`CLAUZ3_CACHE` must be an absolute path", "invalid_request")
        return Path(value)
    xdg = os.environ.get("XDG_CACHE_HOME") or ""
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "clauz3"
    return Path.home() / ".cache" / "clauz3"


def canonical_project(project: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(os.fspath(project)))


def project_sha256(project: str | os.PathLike[str]) -> str:
    """``sha256(project)`` of 05 §1: the canonical absolute path, UTF-8, lowercase hex."""
    return hashlib.sha256(str(canonical_project(project)).encode("utf-8")).hexdigest()


def workspace_dir(project: Path, data: Path | None = None) -> Path:
    return (data or data_dir()) / "workspaces" / project_sha256(project)


def is_symlink(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def make_private_dir(path: Path) -> None:
    """mkdir 0700 with missing parents; a symlink in place of ``path`` fails the operation, naming it."""
    missing: list[Path] = []
    current = path
    while not os.path.lexists(current):
        missing.append(current)
        current = current.parent
    for p in reversed(missing):
        os.mkdir(p, 0o700)
    if is_symlink(path):
        raise LibraryError(f"{path} is a symbolic link; refusing to use it", "refused")


@dataclass(frozen=True)
class Target:
    """Where a library operation writes: a project's ``.clauz3/`` or ``<data>/global/`` (same layout)."""

    kind: str  # "project" or "global"
    base: Path
    data: Path
    project: Path | None = None

    @classmethod
    def for_project(cls, project: str | os.PathLike[str], data: Path | None = None) -> Target:
        root = canonical_project(project)
        return cls("project", root / ".clauz3", data or data_dir(), root)

    @classmethod
    def for_global(cls, data: Path | None = None) -> Target:
        d = data or data_dir()
        return cls("global", d / "global", d, None)

    @property
    def tools(self) -> Path:
        return self.base / "tools"

    @property
    def staging(self) -> Path:
        return self.base / "staging"

    @property
    def backups(self) -> Path:
        return self.base / "library-backups"

    @property
    def skills(self) -> Path:
        return self.base / "skills"

    @property
    def authored(self) -> Path | None:
        """The authored tree ``<project>/tools`` (none for the global store)."""
        return self.project / "tools" if self.project is not None else None

    @property
    def lock_path(self) -> Path:
        name = "libraries-global.lock" if self.project is None else f"libraries-{project_sha256(self.project)}.lock"
        return self.data / "locks" / name

    @property
    def workspace_lock_path(self) -> Path | None:
        if self.project is None:
            return None
        return self.data / "locks" / f"workspace-{project_sha256(self.project)}.lock"

    def display(self) -> str:
        return str(self.tools)

    def check_links(self, domains: Sequence[str] = ()) -> None:
        """INS-5: a symlink at the base, ``tools``, ``tools/<org>``, ``staging`` or ``library-backups`` is refused."""
        paths = [self.base, self.tools, self.staging, self.backups]
        for d in domains:
            if "/" in d:
                paths.append(self.tools / d.split("/")[0])
        for p in paths:
            if is_symlink(p):
                raise LibraryError(f"{p} is a symbolic link; refusing to change libraries through it", "refused")

    def ensure_base(self) -> None:
        """Create the base (0700); a fresh project ``.clauz3`` gets the DATA-3 ``.gitignore`` (never overwritten)."""
        self.check_links()
        created = not os.path.lexists(self.base)
        make_private_dir(self.base)
        if self.kind == "project":
            ignore = self.base / ".gitignore"
            if created or not os.path.lexists(ignore):
                try:
                    fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                except FileExistsError:
                    return
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(GITIGNORE)
