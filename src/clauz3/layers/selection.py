"""Library selection: per-workspace defaults, fingerprints and conversation changes (05 §8).

The web host and the terminal launcher call these; nothing here talks to an agent. Defaults live in
``<data>/workspaces/<sha256(project)>/libraries.json`` ``{"schema_version": 1, "domains": [...]}``
(sorted, dependency-closed, written only when changed).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.layers.inventory import PresentDomain, closure, dependency_map, present_domains
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target, is_symlink, make_private_dir, workspace_dir
from clauz3.storage.atomic import write_atomic

SCHEMA_VERSION = 1
NEWER = "written by a newer clauz3; upgrade clauz3"


def defaults_path(project: Path, data: Path | None = None) -> Path:
    return workspace_dir(project, data) / "libraries.json"


def _present(project: Path, data: Path | None) -> tuple[Target, dict[str, PresentDomain]]:
    from clauz3.layers.discovery import DiscoveryError, default_import_roots, discover_domains

    target = Target.for_project(project, data)
    try:  # CLI-11: one domain in both trees is a layout conflict, not a choice
        discover_domains(default_import_roots(target.project or Path(project)))
    except DiscoveryError as exc:
        raise LibraryError(str(exc), "refused") from None
    return target, present_domains(target)


def read_defaults(project: Path, data: Path | None = None) -> list[str] | None:
    """The saved default selection, or None when there is no file (SEL-2 then applies)."""
    path = defaults_path(project, data)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LibraryError(f"cannot read {path}: {exc.strerror or exc}", "invalid_request") from None
    try:
        with os.fdopen(fd, "rb") as fh:
            record = json.loads(fh.read(1 << 20))
    except (OSError, ValueError):
        raise LibraryError(f"{path} is not valid JSON", "invalid_request") from None
    version = record.get("schema_version") if isinstance(record, dict) else None
    if isinstance(version, int) and version > SCHEMA_VERSION:
        raise LibraryError(f"{path}: {NEWER}", "invalid_request")
    domains = record.get("domains") if isinstance(record, dict) else None
    if version != SCHEMA_VERSION or not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        raise LibraryError(f"{path}: not a libraries.json document", "invalid_request")
    return sorted(set(domains))


def _write_defaults(project: Path, domains: list[str], data: Path | None) -> None:
    path = defaults_path(project, data)
    if is_symlink(path.parent):
        raise LibraryError(f"{path.parent} is a symbolic link; refusing to write through it", "refused")
    try:
        current = read_defaults(project, data)
    except LibraryError as exc:
        if NEWER in str(exc):
            raise
        current = None
    if current == domains and os.path.lexists(path):
        return
    make_private_dir(path.parent)
    body = json.dumps({"schema_version": SCHEMA_VERSION, "domains": domains}, indent=1) + "\n"
    write_atomic(path, body.encode("utf-8"))


def save_defaults(project: Path, domains: Sequence[str], data: Path | None = None) -> list[str]:
    """SEL-3 ``select``: the given domains plus their dependency closure; each must be present (400 else)."""
    target, present = _present(project, data)
    for d in domains:
        p = present.get(d)
        if p is None:
            raise LibraryError(f"{d} is not installed in this project", "invalid_request")
        if is_symlink(p.domain_dir) or is_symlink(p.trusted_root):
            raise LibraryError(f"{d} is reached through a symbolic link", "invalid_request")
    deps, _missing = dependency_map(target, present)
    chosen = [d for d in closure(list(domains), deps) if d in present]
    _write_defaults(project, chosen, data)
    return chosen


def drop_from_defaults(project: Path, domains: Sequence[str], data: Path | None = None) -> None:
    """INS-12: a removed domain leaves the saved defaults (no file → nothing to do)."""
    current = read_defaults(project, data)
    if current is None:
        return
    kept = [d for d in current if d not in set(domains)]
    if kept != current:
        _write_defaults(project, kept, data)


def starting_without_notice(names: Sequence[str]) -> str:
    """SEL-4's one-time notice, listing every dropped name."""
    return (f"Starting without {', '.join(names)}: it is no longer installed in this project. Install it again "
            "from Libraries to use it.")


def defaults_for_new_conversation(project: Path, data: Path | None = None) -> tuple[list[str], str | None]:
    """SEL-2/SEL-4: the selection a new conversation starts with, and the one-time notice when defaults dropped.

    Without a saved file every present domain is the default. A saved default no longer present, or
    missing a dependency, is dropped and the file rewritten.
    """
    target, present = _present(project, data)
    saved = read_defaults(project, data)
    if saved is None:
        return sorted(present), None
    deps, missing = dependency_map(target, present)
    kept = [d for d in saved if d in present and d not in missing]
    dropped = [d for d in saved if d not in kept]
    if dropped:
        _write_defaults(project, closure(kept, deps), data)
        return closure(kept, deps), starting_without_notice(dropped)
    return saved, None


def terminal_libraries_line(domains: Sequence[str]) -> str:
    """SEL-3's terminal line for ``start``."""
    return "Libraries: " + (", ".join(domains) if domains else "none")


def reduce_selection(project: Path, domains: Sequence[str], data: Path | None = None) -> list[str]:
    """SEL-10: requested domains reduced to present ones plus their dependencies."""
    target, present = _present(project, data)
    deps, _missing = dependency_map(target, present)
    return [d for d in closure([d for d in domains if d in present], deps) if d in present]


def trusted_roots(project: Path, domains: Sequence[str], data: Path | None = None) -> list[Path]:
    """The trusted roots of the selected present domains, in domain order (absent ones are skipped)."""
    _target, present = _present(project, data)
    return [present[d].trusted_root for d in sorted(domains) if d in present]


def library_hashes(project: Path, domains: Sequence[str], data: Path | None = None) -> dict[str, str]:
    """``{domain: tree hash}`` (``"missing"`` for absent domains) — SEL-6 ``library_hashes``."""
    from clauz3.language._layer_hash import TreeHashError, domain_tree_hash

    _target, present = _present(project, data)
    out: dict[str, str] = {}
    for d in sorted(domains):
        try:
            out[d] = domain_tree_hash(present[d].domain_dir) if d in present else "missing"
        except (TreeHashError, OSError):
            out[d] = "unreadable"
    return out


def selection_fingerprint(project: Path, domains: Sequence[str], data: Path | None = None) -> str:
    """SEL-7 ``library_fingerprint`` of the selected domains; symlinked roots or initializers are refused."""
    from clauz3.language.layer import LayerError, library_fingerprint

    root = Target.for_project(project, data).project or Path(project)
    try:
        return library_fingerprint(trusted_roots(project, domains, data), root)
    except LayerError as exc:
        raise LibraryError(str(exc), "refused") from None


@dataclass
class SelectionChange:
    """SEL-10 classification of ``clauz3/libraries {domains}`` against a conversation's state."""

    kind: str  # "noop", "apply" (before the first message), "narrow" or "widen"
    domains: list[str]
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)

    @property
    def needs_confirm(self) -> bool:
        return self.kind == "widen"

    @property
    def pauses(self) -> bool:
        """SEL-13: only a confirmed widening pauses automatic approvals."""
        return self.kind == "widen"

    def confirm_params(self) -> dict[str, Any]:
        """``clauz3/confirm_libraries`` (SEL-11)."""
        return {"domains": self.domains, "added": self.added, "removed": self.removed, "updated": self.updated}

    def marker(self, *, paused: bool, turn: int) -> dict[str, Any]:
        """``clauz3/libraries_changed`` transcript entry (SEL-12)."""
        return {"added": self.added, "removed": self.removed, "updated": bool(self.updated), "paused": paused,
                "turn": turn}


def classify_change(project: Path, current: Sequence[str], saved_hashes: dict[str, str], requested: Sequence[str],
                    *, started: bool, data: Path | None = None) -> SelectionChange:
    """Classify a selection request; ``started`` means the first user message was sent."""
    domains = reduce_selection(project, requested, data)
    now = library_hashes(project, domains, data)
    added = [d for d in domains if d not in current]
    removed = sorted(d for d in current if d not in domains)
    updated = [d for d in domains if d in current and saved_hashes.get(d) != now.get(d)]
    if not added and not removed and not updated:
        return SelectionChange("noop", domains)
    if not started:
        kind = "apply"
    elif not added and not updated:
        kind = "narrow"
    else:
        kind = "widen"
    return SelectionChange(kind, domains, added, removed, updated)


def change_note(pending: Sequence[SelectionChange]) -> str | None:
    """SEL-14: one note for every change since the agent's last prompt (None when nothing net changed)."""
    added: list[str] = []
    removed: list[str] = []
    updated: list[str] = []
    for change in pending:
        for d in change.added:
            if d in removed:
                removed.remove(d)
            elif d not in added:
                added.append(d)
        for d in change.removed:
            if d in added:
                added.remove(d)
            elif d not in removed:
                removed.append(d)
            if d in updated:
                updated.remove(d)
        for d in change.updated:
            if d not in updated and d not in added:
                updated.append(d)
    parts = []
    if added:
        parts.append("added " + ", ".join(sorted(added)))
    if removed:
        parts.append("removed " + ", ".join(sorted(removed)))
    if updated:
        parts.append("files updated in " + ", ".join(sorted(updated)))
    if not parts:
        return None
    return ("[clauz3] Library change since your last message — " + "; ".join(parts)
            + ". Your earlier tools listing is stale: call tools again before you write another program.")


def fingerprint_changed(project: Path, domains: Sequence[str], saved_fingerprint: str,
                        data: Path | None = None) -> bool:
    """SEL-8/SEL-15: True when the selection's files changed or a selected domain is gone."""
    _target, present = _present(project, data)
    if any(d not in present for d in domains):
        return True
    try:
        return selection_fingerprint(project, domains, data) != saved_fingerprint
    except LibraryError:
        return True
