"""Applying a review: rechecks, backups, renames with rollback, pruning (05 INS-8 … INS-12).

Every step after the rechecks is a rename within one filesystem, recorded on an undo stack; any
failure undoes the completed moves in reverse so the previous trees come back byte-identical, and
reports the first error. ``FAIL_HOOK`` lets tests inject a failure before any step.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from clauz3.layers.inventory import present_domains
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target, is_symlink, make_private_dir
from clauz3.layers.locks import library_lock, require_lease_free
from clauz3.layers.plan import check_overlaps
from clauz3.layers.review import _iso, discard_staging, load_review, tree_hash
from clauz3.storage.atomic import write_atomic

KEEP_BACKUPS = 10
CHANGED = "Project library files changed after the review."
STAGED_CHANGED = "Staged files changed after the review."
IN_USE = "Stop the conversation that uses this library before changing it."
RUN_ACTIVE = "A run is active or the agent is working; wait for it to finish before changing libraries."

# Tests set this to ``fn(step, domain)``; raising from it simulates a failure at that step
# ("backup" moves the old copy out, "install" moves the staged copy in).
FAIL_HOOK: Callable[[str, str], None] | None = None


@dataclass
class ApplyResult:
    action: str
    source: str
    domains: list[str]
    into: Path
    backup: Path | None
    skills: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The body of ``POST /api/workspace/libraries/apply``."""
        return {"action": self.action, "domains": self.domains, "backup": str(self.backup) if self.backup else None}


def _hook(step: str, domain: str) -> None:
    if FAIL_HOOK is not None:
        FAIL_HOOK(step, domain)


def apply_review(target: Target, review_id: str, *, cli: bool = False, busy: bool = False,
                 active_domains: Collection[str] = ()) -> ApplyResult:
    """Apply the current review ``review_id`` (INS-8 preconditions in order; any failure changes nothing).

    ``busy``: the browser host says a run is active or the agent is not idle. ``active_domains``: the
    live conversation's selection. ``cli``: also require the project's workspace lease to be free.
    """
    load_review(target, review_id)
    with library_lock(target.lock_path):
        record = load_review(target, review_id)
        domains: list[str] = record["domains"]
        if busy:
            raise LibraryError(RUN_ACTIVE, "busy")
        if set(domains) & set(active_domains):
            raise LibraryError(IN_USE, "in_use")
        if cli:
            require_lease_free(target.workspace_lock_path)
        try:
            target.check_links(domains)
        except LibraryError as exc:
            raise LibraryError(f"{CHANGED} ({exc})", "changed_since_review") from None
        present = present_domains(target)
        if record["action"] != "remove":
            others = [d for d in present if d not in domains]
            try:
                check_overlaps(domains, others)
            except LibraryError as exc:
                raise LibraryError(f"{CHANGED} ({exc})", "changed_since_review") from None
            authored = [d for d in domains if d in present and present[d].tree == "authored"]
            if authored:
                raise LibraryError(f"{CHANGED} ({authored[0]} is now authored in tools/)", "changed_since_review")
        staging = target.staging / review_id / "tools"
        for d in domains:
            if _hash(target.tools / d) != record["before"][d]:
                raise LibraryError(CHANGED, "changed_since_review")
        for d in domains:
            if record["action"] != "remove" and _hash(staging / d) != record["after"][d]:
                raise LibraryError(STAGED_CHANGED, "changed_since_review")
        try:
            backup = _move(target, record, staging)
        finally:
            discard_staging(target)
        result = ApplyResult(record["action"], record["source"], domains, target.tools, backup)
        _prune(target, domains)
    _after(target, record, result)
    return result


def _hash(path: Path) -> str:
    try:
        return tree_hash(path)
    except LibraryError:
        return "unhashable"


def _move(target: Target, record: dict[str, Any], staging: Path) -> Path | None:
    domains: list[str] = record["domains"]
    replaces = any(record["before"][d] != "missing" for d in domains)
    backup = target.backups / record["id"]
    undo: list[Callable[[], None]] = []

    def mkdir_recorded(path: Path) -> None:
        missing: list[Path] = []
        p = path
        while not os.path.lexists(p):
            missing.append(p)
            p = p.parent
        for m in reversed(missing):
            os.mkdir(m, 0o700)
            undo.append(partial(os.rmdir, m))

    try:
        if replaces:
            make_private_dir(target.backups)
            mkdir_recorded(backup / "tools")
            info = {"schema_version": 1, "review_id": record["id"], "action": record["action"],
                    "source": record["source"], "domains": domains, "applied_at": _iso(time.time())}
            write_atomic(backup / "backup.json", json.dumps(info, indent=1).encode("utf-8"))
            undo.append(lambda: os.unlink(backup / "backup.json"))
        for d in domains:
            current = target.tools / d
            if os.path.lexists(current):
                _hook("backup", d)
                mkdir_recorded((backup / "tools" / d).parent)
                os.rename(current, backup / "tools" / d)
                undo.append(partial(os.rename, backup / "tools" / d, current))
            if record["action"] != "remove":
                mkdir_recorded(current.parent)
                _hook("install", d)
                os.rename(staging / d, current)
                undo.append(partial(os.rename, current, staging / d))
    except BaseException as exc:
        problems = _undo(undo)
        if replaces and os.path.isdir(backup) and not is_symlink(backup):
            shutil.rmtree(backup, ignore_errors=True)
        suffix = f"; rollback also failed: {problems[0]}" if problems else ""
        if isinstance(exc, LibraryError):
            raise LibraryError(f"{exc}{suffix}", exc.code) from None
        if isinstance(exc, OSError):
            raise LibraryError(f"could not apply the change: {exc.strerror or exc}{suffix}", "refused") from None
        raise
    return backup if replaces else None


def _undo(steps: list[Callable[[], None]]) -> list[str]:
    problems: list[str] = []
    for step in reversed(steps):
        try:
            step()
        except OSError as exc:
            problems.append(str(exc))
    return problems


def _applied_at(backup: Path) -> str:
    try:
        fd = os.open(backup / "backup.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            value = json.loads(fh.read(65536)).get("applied_at")
        return value if isinstance(value, str) else ""
    except (OSError, ValueError, AttributeError):
        return ""


def _prune(target: Target, domains: list[str]) -> None:
    """INS-11: keep the newest 10 backups per domain; delete older domain trees and then-empty backups."""
    if not target.backups.is_dir() or is_symlink(target.backups):
        return
    backups = [Path(e.path) for e in os.scandir(target.backups) if e.is_dir(follow_symlinks=False)]
    for d in domains:
        holding = [b for b in backups if (b / "tools" / d).is_dir() and not is_symlink(b / "tools" / d)]
        holding.sort(key=lambda b: (_applied_at(b), b.name), reverse=True)
        for old in holding[KEEP_BACKUPS:]:
            shutil.rmtree(old / "tools" / d, ignore_errors=True)
            if "/" in d:
                try:
                    os.rmdir(old / "tools" / d.split("/")[0])
                except OSError:
                    pass
            tools = old / "tools"
            if not tools.is_dir() or not any(tools.iterdir()):
                shutil.rmtree(old, ignore_errors=True)


def _after(target: Target, record: dict[str, Any], result: ApplyResult) -> None:
    """INS-12: a remove leaves the default selection; ``--skills`` regenerates each domain's skill."""
    if record["action"] == "remove" and target.project is not None:
        from clauz3.layers.selection import drop_from_defaults

        try:
            drop_from_defaults(target.project, result.domains, data=target.data)
        except LibraryError as exc:
            result.warnings.append(str(exc))
    if record.get("skills") and record["action"] != "remove":
        from clauz3.layers.skilldoc import write_skill

        for d in result.domains:
            path, warning = write_skill(target, d)
            if warning:
                result.warnings.append(warning)
            else:
                result.skills.append(path)
