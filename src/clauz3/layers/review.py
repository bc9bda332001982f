"""Reviews: staging a plan and the review record (05 INS-4, INS-6); one current review per target.

A review lives in ``<base>/staging/<id>/``: the staged domains under ``tools/`` and the record in
``review.json``. Preparing a new review discards every other staging folder of the target, so
"current" is simply the one folder left. Nothing under the target's ``tools/`` changes here.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from clauz3.language._layer_hash import TreeHashError, domain_tree_hash
from clauz3.layers.catalogue_cache import write_cached
from clauz3.layers.inventory import ORIGIN, PACKAGE_SNAPSHOT, present_domains
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target, is_symlink, make_private_dir
from clauz3.layers.locks import library_lock
from clauz3.layers.mockscan import scan_mocks
from clauz3.layers.plan import Plan, build_plan
from clauz3.layers.requirements import requirement_lines
from clauz3.layers.review_api import domain_api, domain_sources
from clauz3.layers.treecopy import file_hashes, write_domain, write_file
from clauz3.storage.atomic import write_atomic

REVIEW_TTL = 30 * 60
STAGING_MAX_AGE = 24 * 3600
EXPIRED = "This review is no longer current; review the change again."


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_iso(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def tree_hash(path: Path) -> str:
    try:
        return domain_tree_hash(path)
    except TreeHashError as exc:
        raise LibraryError(str(exc), "refused") from None
    except OSError as exc:
        raise LibraryError(f"cannot read {path}: {exc.strerror or exc}", "refused") from None


def discard_staging(target: Target, keep: str | None = None) -> None:
    """Delete staging folders (all but ``keep``); never follows a link (the folder itself is checked)."""
    if not os.path.lexists(target.staging):
        return
    if is_symlink(target.staging):
        raise LibraryError(f"{target.staging} is a symbolic link; refusing to change libraries through it", "refused")
    for entry in os.scandir(target.staging):
        if entry.name == keep:
            continue
        if entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
            os.unlink(entry.path)
        else:
            shutil.rmtree(entry.path, ignore_errors=True)


def discard_review(target: Target) -> None:
    """The browser's ``discard`` and CLI-7's cleanup: drop the current review and its staging."""
    with library_lock(target.lock_path):
        discard_staging(target)


def load_review(target: Target, review_id: str) -> dict[str, Any]:
    """The stored record of ``review_id`` if it is the current, unexpired review with its staging (INS-8 (1))."""
    if not isinstance(review_id, str) or len(review_id) != 32 or any(c not in "0123456789abcdef" for c in review_id):
        raise LibraryError(EXPIRED, "review_expired")
    folder = target.staging / review_id
    try:
        fd = os.open(folder / "review.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            record = json.loads(fh.read())
    except (OSError, ValueError):
        raise LibraryError(EXPIRED, "review_expired") from None
    if record.get("id") != review_id or _parse_iso(record["expires_at"]) <= time.time():
        raise LibraryError(EXPIRED, "review_expired")
    return record


def current_review(target: Target) -> dict[str, Any] | None:
    """The current review record (``review`` of ``GET /api/workspace/libraries``), if any."""
    if not target.staging.is_dir() or is_symlink(target.staging):
        return None
    for entry in sorted(os.scandir(target.staging), key=lambda e: e.name):
        try:
            return load_review(target, entry.name)
        except LibraryError:
            continue
    return None


def _changes(old: dict[str, str], new: dict[str, str], domain: str) -> dict[str, Any]:
    return {
        "domain": domain,
        "added": sorted(p for p in new if p not in old),
        "removed": sorted(p for p in old if p not in new),
        "changed": sorted(p for p in new if p in old and new[p] != old[p]),
    }


def _new_record(target: Target, action: str, source: str, domains: list[str]) -> dict[str, Any]:
    now = time.time()
    return {
        "id": secrets.token_hex(16), "action": action, "source": source, "target": target.kind,
        "into": str(target.tools), "domains": domains, "before": {}, "after": {}, "changes": [],
        "requirements": [], "warnings": [], "manifests": {}, "api": {}, "source_code": {},
        "mock_declarations": {}, "created_at": _iso(now), "expires_at": _iso(now + REVIEW_TTL),
    }


def _begin(target: Target) -> None:
    target.check_links()
    target.ensure_base()
    make_private_dir(target.staging)
    discard_staging(target)


def prepare_install(target: Target, source: str, *, force: bool = False, action: str | None = None,
                    skills: bool = False, cwd: Path | None = None, cache: Path | None = None,
                    warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Review installing (or, with ``force``/``action="update"``, updating) ``source`` into ``target``.

    Returns the INS-6 record; raises :class:`LibraryError` with nothing left staged on any refusal.
    """
    with library_lock(target.lock_path):
        target.check_links()
        present = present_domains(target, warn)
        plan = build_plan(source, target, present, force=force, action=action, cwd=cwd, cache=cache, warn=warn)
        target.check_links(plan.domains)
        _begin(target)
        record = _new_record(target, plan.action, plan.requested.resolved.source, plan.domains)
        folder = target.staging / record["id"]
        try:
            _stage(plan, record, folder)
            record["skills"] = skills
            write_atomic(folder / "review.json", json.dumps(record, ensure_ascii=False).encode("utf-8"))
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
    for s in plan.sources:
        if s.resolved.spec.remote:
            write_cached(target.data, s.resolved.source, s.resolved.revision, dict(s.manifests))
    return record


def _stage(plan: Plan, record: dict[str, Any], folder: Path) -> None:
    make_private_dir(folder / "tools")
    requirements: list[str] = []
    now = time.time()
    for s in plan.sources:
        for line in requirement_lines(s.requirements):
            if line not in requirements:
                requirements.append(line)
        for d in s.write:
            dest = folder / "tools" / d
            write_domain(dest, s.files[d])
            if s.package_bytes is not None:
                write_file(dest / PACKAGE_SNAPSHOT, s.package_bytes)
            origin = {"schema_version": 1, "source": s.resolved.source, "revision": s.resolved.revision,
                      "installed_at": _iso(now), "tree_sha256": domain_tree_hash(dest, exclude=(ORIGIN,))}
            write_file(dest / ORIGIN, (json.dumps(origin, indent=1) + "\n").encode("utf-8"))
            current = plan.target.tools / d
            record["before"][d] = tree_hash(current)
            record["after"][d] = domain_tree_hash(dest)
            record["changes"].append(_changes(file_hashes(current), file_hashes(dest), d))
            record["manifests"][d] = s.manifests.get(d)
            record["api"][d] = domain_api(dest / "trusted")
            record["source_code"][d] = domain_sources(s.files[d])
            record["mock_declarations"][d] = scan_mocks([dest / "trusted"]).to_json()
    record["requirements"] = requirements
    record["warnings"] = list(plan.warnings)
    record["plan"] = [{"source": s.resolved.source, "revision": s.resolved.revision, "domains": s.write}
                      for s in plan.sources]


def prepare_remove(target: Target, domain: str) -> dict[str, Any]:
    """Review removing one installed domain (INS-5: not authored, present, and nothing depends on it)."""
    from clauz3.layers.inventory import dependency_map
    from clauz3.layers.treecopy import read_domain

    with library_lock(target.lock_path):
        target.check_links([domain])
        present = present_domains(target)
        p = present.get(domain)
        if p is None:
            raise LibraryError(f"{domain} is not installed here; there is nothing to remove", "refused")
        if p.tree == "authored":
            raise LibraryError(f"{domain} is authored in this project's tools/ folder; clauz3 only removes installed "
                               "libraries", "refused")
        deps, _missing = dependency_map(target, present)
        for other in sorted(deps):
            if other != domain and domain in deps[other]:
                raise LibraryError(f"{other} depends on {domain}; remove {other} first.", "refused")
        _begin(target)
        record = _new_record(target, "remove", p.source, [domain])
        folder = target.staging / record["id"]
        try:
            make_private_dir(folder / "tools")
            record["before"][domain] = tree_hash(p.domain_dir)
            record["after"][domain] = "missing"
            record["changes"].append(_changes(file_hashes(p.domain_dir), {}, domain))
            record["manifests"][domain] = p.manifest
            record["api"][domain] = domain_api(p.trusted_root)
            record["source_code"][domain] = domain_sources(read_domain(p.domain_dir, p.source))
            record["mock_declarations"][domain] = scan_mocks([p.trusted_root]).to_json()
            record["skills"] = False
            write_atomic(folder / "review.json", json.dumps(record, ensure_ascii=False).encode("utf-8"))
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
    return record
