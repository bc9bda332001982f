"""Planning an install: the requested source and its dependencies, depth first (05 INS-3, INS-5, MAN-3/4).

The plan reads manifests from the exact revision being installed, keeps dependency domains that
are already present, refuses what INS-5 refuses, and reads every file to be copied (links and
special files refused, SRC-3 limits per plan). It writes nothing; :mod:`clauz3.layers.review`
stages the result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.layers.discovery import domains_in
from clauz3.layers.inventory import PACKAGE_SNAPSHOT, PresentDomain, read_package_snapshot, source_domains
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target
from clauz3.layers.manifest import ManifestError, load_manifest
from clauz3.layers.requirements import merge_requirements
from clauz3.layers.sources import ResolvedSource, SourceSpec, parse_source, resolve, resolve_dependency_text
from clauz3.layers.treecopy import Budget, FileEntry, read_domain

MAX_DEPTH = 8
MAX_SOURCES = 32


@dataclass
class PlannedSource:
    resolved: ResolvedSource
    domains: list[str]
    manifests: dict[str, dict[str, Any] | None]
    package: dict[str, Any] | None
    package_bytes: bytes | None
    requirements: dict[str, Any]
    requested: bool
    write: list[str] = field(default_factory=list)
    files: dict[str, list[FileEntry]] = field(default_factory=dict)


@dataclass
class Plan:
    target: Target
    action: str  # "install" or "update"
    request: str
    sources: list[PlannedSource]  # dependencies first, the requested source last
    warnings: list[str]

    @property
    def requested(self) -> PlannedSource:
        return self.sources[-1]

    @property
    def domains(self) -> list[str]:
        return [d for s in self.sources for d in s.write]


def _overlap(a: str, b: str) -> bool:
    pa, pb = a.split("/"), b.split("/")
    n = min(len(pa), len(pb))
    return a != b and pa[:n] == pb[:n]


def check_overlaps(planned: list[str], existing: list[str]) -> None:
    """INS-5: one domain path a component prefix of another, within the plan or against present domains."""
    for i, a in enumerate(planned):
        for b in planned[i + 1 :] + [e for e in existing if e not in planned]:
            if _overlap(a, b):
                first, second = sorted((a, b), key=len)
                raise LibraryError(f"domains {first} and {second} overlap; one library cannot contain another",
                                   "refused")


def _read_package(resolved: ResolvedSource, domains: list[str]) -> tuple[dict[str, Any] | None, bytes | None]:
    path = resolved.root / "clauz3.yaml"
    if not os.path.lexists(path):
        # A global copy or a backup carries the snapshot instead of the package manifest.
        for d in domains:
            snap = resolved.root / "tools" / d / PACKAGE_SNAPSHOT
            if os.path.lexists(snap):
                try:
                    return read_package_snapshot(resolved.root / "tools" / d), _read_bytes(snap)
                except ManifestError as exc:
                    raise LibraryError(str(exc), "invalid_library") from None
        return None, None
    try:
        return load_manifest(path, kind="package", display=f"{resolved.source}: clauz3.yaml"), _read_bytes(path)
    except ManifestError as exc:
        raise LibraryError(str(exc), "invalid_library") from None


def _read_bytes(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


class Planner:
    def __init__(self, target: Target, present: dict[str, PresentDomain], *, force: bool, cwd: Path,
                 cache: Path | None, warn: Callable[[str], None]) -> None:
        self.target = target
        self.present = present
        self.force = force
        self.cwd = cwd
        self.cache = cache
        self.warn = warn
        self.done: dict[str, PlannedSource] = {}
        self.order: list[PlannedSource] = []
        self.labels: dict[str, str] = {}
        self.warnings: list[str] = []

    def _warning(self, message: str) -> None:
        self.warnings.append(message)
        self.warn(message)

    def _spec(self, text: str, declaring: ResolvedSource | None) -> SourceSpec:
        if declaring is not None:
            text = resolve_dependency_text(text, declaring)
            # A dependency of a global copy uses the global copy of a stdlib library when there is one.
            if declaring.spec.kind == "global" and text.startswith("stdlib:"):
                name = text[len("stdlib:") :]
                if (self.target.data / "global" / "tools" / name / "trusted").is_dir():
                    text = f"global:{name}"
        try:
            return parse_source(text, cwd=self.cwd, target_kind=self.target.kind)
        except LibraryError as exc:
            if declaring is None:
                raise
            raise LibraryError(f"{declaring.source}: dependency {text}: {exc}", exc.code,
                               missing=exc.missing) from None

    def visit(self, text: str, declaring: ResolvedSource | None, chain: list[str]) -> None:
        spec = self._spec(text, declaring)
        key = spec.text
        if key in chain:
            names = [self.labels.get(k, k) for k in [*chain[chain.index(key) :], key]]
            raise LibraryError("cyclic library dependency: " + " → ".join(names), "invalid_library")
        if key in self.done:
            return
        if declaring is not None:
            known = source_domains(key, base=None, data=self.target.data, present=self.present)
            if known and all(d in self.present for d in known):
                for d in known:
                    self._keep_present(d, key)
                return
        if len(chain) >= MAX_DEPTH:
            raise LibraryError(f"library dependencies nest deeper than {MAX_DEPTH} levels at {key}", "invalid_library")
        if len(self.done) >= MAX_SOURCES:
            raise LibraryError(f"the plan needs more than {MAX_SOURCES} sources", "invalid_library")
        resolved = resolve(spec, data=self.target.data, cache=self.cache)
        planned = self._describe(resolved, requested=declaring is None)
        self.labels[key] = "+".join(planned.domains)
        for d in planned.domains:
            for dep in (planned.manifests.get(d) or {}).get("dependencies", []):
                self.visit(dep, resolved, [*chain, key])
        self.done[key] = planned
        self.order.append(planned)

    def _keep_present(self, domain: str, source: str) -> None:
        p = self.present[domain]
        if p.source != source:
            self._warning(f"dependency {domain} is kept as present (from {p.source}), not replaced by {source}")

    def _describe(self, resolved: ResolvedSource, *, requested: bool) -> PlannedSource:
        found = domains_in(resolved.root, self._warning)
        names = [d.name for d in found]
        if resolved.only is not None:
            names = [n for n in names if n in resolved.only]
        if not names:
            raise LibraryError(f"{resolved.source}: no library domains (expected tools/<domain>/trusted/)",
                               "invalid_library")
        package, package_bytes = _read_package(resolved, names)
        manifests: dict[str, dict[str, Any] | None] = {}
        for name in names:
            path = resolved.root / "tools" / name / "clauz3.yaml"
            if os.path.lexists(path):
                try:
                    manifests[name] = load_manifest(path, kind="domain", domain=name,
                                                    display=f"{resolved.source}: tools/{name}/clauz3.yaml")
                except ManifestError as exc:
                    raise LibraryError(str(exc), "invalid_library") from None
            elif package is not None:
                raise LibraryError(f"invalid manifest {resolved.source}: tools/{name}/clauz3.yaml is missing; a "
                                   "source with a package manifest needs one in every domain", "invalid_library")
            else:
                manifests[name] = None
                self._warning(f"{name} has no clauz3.yaml; it installs without a description or setup steps")
        parts = [("package manifest", (package or {}).get("requirements"))]
        parts += [(f"tools/{n}/clauz3.yaml", (manifests[n] or {}).get("requirements")) for n in names]
        requirements = merge_requirements(parts, resolved.source)
        return PlannedSource(resolved, names, manifests, package, package_bytes, requirements, requested)


def build_plan(source: str, target: Target, present: dict[str, PresentDomain], *, force: bool = False,
               action: str | None = None, cwd: Path | None = None, cache: Path | None = None,
               warn: Callable[[str], None] | None = None) -> Plan:
    """Plan installing ``source`` (``action`` ``"update"`` requires it to be installed already)."""
    planner = Planner(target, present, force=force, cwd=cwd or Path.cwd(), cache=cache, warn=warn or (lambda _m: None))
    planner.visit(source, None, [])
    requested = planner.order[-1]
    installed_here = [d for d in requested.domains if d in present and present[d].tree == "installed"]
    for d in requested.domains:
        p = present.get(d)
        if p is not None and p.tree == "authored":
            raise LibraryError(f"{d} is authored in this project's tools/ folder; clauz3 install never replaces "
                               "authored libraries", "refused")
        if p is not None and not force and action != "update":
            raise LibraryError(f"{d} is already installed from {p.source}. Use --force (CLI) or Update (browser) to "
                               "review replacing it.", "refused")
    if action == "update" and not installed_here:
        raise LibraryError(f"{requested.resolved.source} is not installed here; there is nothing to update", "refused")
    for s in planner.order:
        s.write = list(s.domains) if s.requested else [d for d in s.domains if d not in present]
        for d in s.domains:
            if not s.requested and d in present:
                planner._keep_present(d, s.resolved.source)
    planned = [d for s in planner.order for d in s.write]
    check_overlaps(planned, list(present))
    _check_sibling_packages(planner.order, present)
    budget = Budget()
    for s in planner.order:
        for d in s.write:
            s.files[d] = read_domain(s.resolved.root / "tools" / d, s.resolved.source, budget)
    final_action = action or ("update" if installed_here else "install")
    return Plan(target, final_action, source, planner.order, planner.warnings)


def _check_sibling_packages(order: list[PlannedSource], present: dict[str, PresentDomain]) -> None:
    """INS-5: a package manifest differing from the snapshot of an installed sibling of the same source."""
    for s in order:
        for p in present.values():
            if p.tree != "installed" or p.name in s.write or not p.origin or p.origin.get("source") != s.resolved.source:
                continue
            try:
                snapshot = read_package_snapshot(p.domain_dir)
            except ManifestError as exc:
                raise LibraryError(str(exc), "invalid_library") from None
            if snapshot != s.package:
                raise LibraryError(f"the package manifest of {s.resolved.source} differs from the one installed with "
                                   f"{p.name}; update {p.name} from the same source together", "refused")
