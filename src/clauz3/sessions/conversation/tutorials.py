"""Tutorial working copies under ``<data>/tutorials/<id>/`` (05 TUT-1..3).

A copy is made next to its final place as ``.<id>-<random>/`` (template + marker file, and for
``real-files`` the bundled ``stdlib:filesystem`` installed through the normal review/apply
pipeline, TUT-13) and renamed into place, so a failed copy never leaves a half tutorial. An
existing copy is reused; reset replaces it (deleting the old one without following links) and
:func:`forget_state` clears that project's conversations' side data (TUT-3).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import stat
import time
from pathlib import Path

import clauz3.tutorials as bundled
from clauz3.sessions.errors import SessionError
from clauz3.tutorials import TUTORIALS, Tutorial

MARKER = ".clauz3-tutorial.json"


class TutorialError(SessionError):
    pass


def tutorials_dir(data_dir: Path) -> Path:
    path = data_dir / "tutorials"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.is_symlink() or not path.is_dir():
        raise TutorialError(f"{path} is a symbolic link")
    return path


def _ignore(directory: str, names: list[str]) -> list[str]:
    return [n for n in names if n in ("__pycache__",) or n.endswith(".pyc")]


# Libraries a template gets through the normal install pipeline when its copy is made (TUT-13).
INSTALLS: dict[str, tuple[str, ...]] = {"real-files": ("stdlib:filesystem",)}


def template_dir(tutorial: Tutorial) -> Path:
    """The template folder: ``clauz3/tutorials/<id>/`` (05 TUT-1), else the package's own mapping."""
    named = bundled.HERE / tutorial.id
    return named if named.is_dir() else tutorial.template


def _install(staging: Path, data_dir: Path, sources: tuple[str, ...]) -> None:
    if not sources:
        return  # most templates install nothing: skip importing the install pipeline (~0.3 s; issue 13)
    from clauz3.layers.apply import apply_review
    from clauz3.layers.locations import Target
    from clauz3.layers.review import prepare_install

    target = Target.for_project(staging, data_dir)
    for source in sources:
        record = prepare_install(target, source, action="install", cwd=staging)
        apply_review(target, record["id"])


def _build(tutorial: Tutorial, parent: Path) -> Path:
    from clauz3.layers.liberrors import LibraryError

    template = template_dir(tutorial)
    if not template.is_dir():
        raise TutorialError(f"the {tutorial.name} tutorial is not available in this build")
    staging = parent / f".{tutorial.id}-{secrets.token_hex(6)}"
    try:
        shutil.copytree(template, staging, ignore=_ignore, symlinks=True)
        os.chmod(staging, 0o700)
        _install(Path(os.path.realpath(staging)), parent.parent, INSTALLS.get(tutorial.id, ()))
        marker = {"schema_version": 1, "id": tutorial.id, "version": tutorial.version, "created_at": time.time()}
        fd = os.open(staging / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(marker, fh)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise TutorialError(f"couldn't copy the {tutorial.name} tutorial: {exc.strerror or exc}") from None
    except LibraryError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise TutorialError(f"couldn't install the {tutorial.name} tutorial's library: {exc}") from None
    return staging


def prepare(data_dir: Path, tutorial_id: str) -> Path:
    """The working copy of ``tutorial_id``, created from the template if missing."""
    tutorial = TUTORIALS.get(tutorial_id)
    if tutorial is None:
        raise TutorialError("Unknown tutorial")
    parent = tutorials_dir(data_dir)
    target = parent / tutorial.id
    if target.is_symlink():
        raise TutorialError(f"{target} is a symbolic link")
    if target.is_dir():
        return Path(os.path.realpath(target))
    staging = _build(tutorial, parent)
    os.rename(staging, target)
    return Path(os.path.realpath(target))


def reset(data_dir: Path, tutorial_id: str) -> Path:
    """Replace the copy with a fresh one from the template (TUT-3, files only)."""
    tutorial = TUTORIALS.get(tutorial_id)
    if tutorial is None:
        raise TutorialError("Unknown tutorial")
    parent = tutorials_dir(data_dir)
    target = parent / tutorial.id
    st = os.lstat(target) if os.path.lexists(target) else None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise TutorialError(f"{target} is a symbolic link")
    staging = _build(tutorial, parent)
    if st is not None:
        old = parent / f".{tutorial.id}-old-{secrets.token_hex(6)}"
        os.rename(target, old)
        shutil.rmtree(old, ignore_errors=True)  # rmtree never follows links inside the tree
    os.rename(staging, target)
    return Path(os.path.realpath(target))


_NEWER: dict[tuple[str, str, float], bool] = {}


def tutorial_newer(project: str, tutorial_id: str | None) -> bool:
    """TUT-2 for the state object: cached by the copy's marker time, so state frames stay cheap."""
    if not tutorial_id:
        return False
    try:
        stamp = os.stat(Path(project) / MARKER).st_mtime
    except OSError:
        return False
    key = (project, tutorial_id, stamp)
    if key not in _NEWER:
        _NEWER.clear()
        _NEWER[key] = newer_available(Path(project), tutorial_id)
    return _NEWER[key]


def newer_available(copy: Path, tutorial_id: str) -> bool:
    tutorial = TUTORIALS.get(tutorial_id)
    try:
        marker = json.loads((copy / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return tutorial is not None and isinstance(marker, dict) and int(marker.get("version", 0)) < tutorial.version


def tutorial_of(data_dir: Path, project: str) -> str | None:
    base = os.path.realpath(data_dir / "tutorials")
    for tid in TUTORIALS:
        if os.path.realpath(project) == os.path.join(base, tid):
            return tid
    return None


def forget_state(data_dir: Path, project: str) -> None:
    """TUT-3: clear the tutorial project's default selection, remembered approvals and history, and its
    file-change journals. Conversations are deleted by the caller through the store."""
    from clauz3.approvals.profiles import forget_project
    from clauz3.layers.selection import defaults_path
    from clauz3.storage.journals import journal_dir

    with contextlib.suppress(FileNotFoundError):
        os.unlink(defaults_path(Path(project), data_dir))
    journals = Path(journal_dir(data_dir, project))
    if journals.is_dir() and not journals.is_symlink():
        shutil.rmtree(journals, ignore_errors=True)
    forget_project(data_dir, project)
