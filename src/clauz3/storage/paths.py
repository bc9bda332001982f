"""Where clauz3 keeps its data and cache (05 DATA-1, §2.4) and the per-project state paths (03 §0, IDM-2).

One rule, used by every layer: the authority, the run ledger, the host and the commands all compute
these paths here, so a project's state directory has one spelling.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from clauz3.storage.errors import StorageError


class RelativeHomeError(StorageError, ValueError):
    """``CLAUZ3_HOME`` is set to a relative path (callers turn it into their own error shape)."""

    code = "relative_home"

    def __init__(self) -> None:
        super().__init__("`CLAUZ3_HOME` must be an absolute path")


def data_dir(*, strict: bool = True) -> Path:
    """``$CLAUZ3_HOME``, else ``$XDG_DATA_HOME/clauz3``, else ``~/.local/share/clauz3``.

    A relative ``CLAUZ3_HOME`` raises :class:`RelativeHomeError` (``strict``) or is ignored; a
    relative ``XDG_DATA_HOME`` is always ignored.
    """
    home = os.environ.get("CLAUZ3_HOME") or ""
    if home:
        if os.path.isabs(home):
            return Path(home)
        if strict:
            raise RelativeHomeError()
    xdg = os.environ.get("XDG_DATA_HOME") or ""
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "clauz3"
    return Path.home() / ".local" / "share" / "clauz3"


def cache_dir() -> Path:
    """``$CLAUZ3_CACHE``, else ``$XDG_CACHE_HOME/clauz3``, else ``~/.cache/clauz3`` (relative values ignored)."""
    value = os.environ.get("CLAUZ3_CACHE") or ""
    if value and os.path.isabs(value):
        return Path(value)
    xdg = os.environ.get("XDG_CACHE_HOME") or ""
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "clauz3"
    return Path.home() / ".cache" / "clauz3"


def canonical_project(project: str | os.PathLike[str]) -> str:
    """The resolved project path as text: the one spelling hashed into receipts, cookies and profiles."""
    return os.path.realpath(os.fspath(project))


def project_sha256(project: str | os.PathLike[str]) -> str:
    return hashlib.sha256(canonical_project(project).encode("utf-8")).hexdigest()


def workspace_state_dir(data: Path, project: str | os.PathLike[str]) -> Path:
    """``<data>/workspaces/<sha256(project)>/``: private per-project state, never inside the project."""
    return data / "workspaces" / project_sha256(project)


def ledger_path(data: Path, project: str | os.PathLike[str]) -> Path:
    return workspace_state_dir(data, project) / "runs.sqlite"


def profiles_path(data: Path) -> Path:
    return data / "approval-profiles.sqlite"
