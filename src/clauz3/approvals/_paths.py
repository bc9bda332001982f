"""Where the authority keeps state: the user data dir and per-project directories (03 §0, IDM-2)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


class DataDirError(ValueError):
    """``CLAUZ3_HOME`` is set but unusable; commands turn it into exit 2."""


def data_dir() -> Path:
    """``$CLAUZ3_HOME``, else ``$XDG_DATA_HOME/clauz3``, else ``~/.local/share/clauz3``."""
    from clauz3.storage.paths import RelativeHomeError
    from clauz3.storage.paths import data_dir as shared

    try:
        return shared()
    except RelativeHomeError as exc:
        raise DataDirError(str(exc)) from None


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
