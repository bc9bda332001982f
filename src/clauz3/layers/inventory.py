"""What a target holds: installed and authored domains, origin records, dependencies (05 INS-1, INS-3, SEL-3).

Everything here reads files only; nothing imports library code or touches the network.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.layers.discovery import domains_in
from clauz3.layers.locations import Target
from clauz3.layers.manifest import ManifestError, load_manifest

ORIGIN = ".clauz3-origin.json"
PACKAGE_SNAPSHOT = ".clauz3-package.yaml"


def read_origin(domain_dir: Path) -> dict[str, Any] | None:
    """The origin record, or None when absent, unreadable, a link or of an unknown schema."""
    path = domain_dir / ORIGIN
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            data = json.loads(fh.read(65536))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("schema_version") != 1 or not isinstance(data.get("source"), str):
        return None
    return data


def read_package_snapshot(domain_dir: Path) -> dict[str, Any] | None:
    path = domain_dir / PACKAGE_SNAPSHOT
    if not os.path.lexists(path):
        return None
    return load_manifest(path, kind="package")


@dataclass
class PresentDomain:
    name: str
    tree: str  # "installed" or "authored"
    domain_dir: Path
    origin: dict[str, Any] | None
    manifest: dict[str, Any] | None
    manifest_error: str | None = None

    @property
    def trusted_root(self) -> Path:
        return self.domain_dir / "trusted"

    @property
    def source(self) -> str:
        """The origin source, else ``project:<domain>`` (SRC-5)."""
        return self.origin["source"] if self.origin else f"project:{self.name}"


def _load_domain_manifest(domain_dir: Path, name: str, display: str) -> tuple[dict[str, Any] | None, str | None]:
    path = domain_dir / "clauz3.yaml"
    if not os.path.lexists(path):
        return None, None
    try:
        return load_manifest(path, kind="domain", domain=name, display=display), None
    except ManifestError as exc:
        return None, str(exc)


def present_domains(target: Target, warn: Callable[[str], None] | None = None) -> dict[str, PresentDomain]:
    """Installed (``<base>/tools``) then authored (``<project>/tools``) domains by name."""
    out: dict[str, PresentDomain] = {}
    roots: list[tuple[str, Path]] = [("installed", target.base)]
    if target.project is not None:
        roots.append(("authored", target.project))
    for tree, root in roots:
        for d in domains_in(root, warn):
            domain_dir = root / "tools" / d.name
            prefix = ".clauz3/" if tree == "installed" and target.kind == "project" else ""
            manifest, error = _load_domain_manifest(domain_dir, d.name, f"{prefix}tools/{d.name}/clauz3.yaml")
            origin = read_origin(domain_dir) if tree == "installed" else None
            if d.name not in out:
                out[d.name] = PresentDomain(d.name, tree, domain_dir, origin, manifest, error)
    return out


def source_domains(text: str, *, base: Path | None, data: Path, present: dict[str, PresentDomain]) -> list[str] | None:
    """Domains a dependency source provides, known without the network (None when unknown)."""
    from clauz3.layers.sources import stdlib_names, stdlib_root

    if text.startswith("stdlib:") or ("/" not in text and ":" not in text and text in stdlib_names()):
        name = text.removeprefix("stdlib:")
        return [d.name for d in domains_in(stdlib_root() / name)] or None
    if text.startswith("global:"):
        return [text[len("global:") :]]
    if ":" in text.split("/", 1)[0] or text.startswith("git@"):
        found = [p.name for p in present.values() if p.origin and p.origin.get("source") == text]
        if found:
            return found
        from clauz3.layers.catalogue_cache import read_cached

        cached = read_cached(data, text)
        return sorted(cached["domains"]) if cached else None
    path = Path(text) if os.path.isabs(text) or base is None else base / text
    if path.name == "tools":
        path = path.parent
    return [d.name for d in domains_in(path)] or None


def dependency_map(target: Target, present: dict[str, PresentDomain]) -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """``(deps, missing)``: each present domain's present dependency domains, and unmet dependency sources."""
    deps: dict[str, set[str]] = {}
    missing: dict[str, list[str]] = {}
    for name, p in present.items():
        deps[name] = set()
        for text in (p.manifest or {}).get("dependencies", []):
            base = None
            if p.origin and os.path.isabs(p.origin.get("source", "")):
                base = Path(p.origin["source"])
            elif p.tree == "authored" and target.project is not None:
                base = target.project
            provided = source_domains(text, base=base, data=target.data, present=present)
            if not provided or any(d not in present for d in provided):
                missing.setdefault(name, []).append(text)
            else:
                deps[name].update(d for d in provided if d != name)
    return deps, missing


def closure(domains: list[str], deps: dict[str, set[str]]) -> list[str]:
    out: set[str] = set()
    stack = list(domains)
    while stack:
        d = stack.pop()
        if d in out:
            continue
        out.add(d)
        stack.extend(deps.get(d, ()))
    return sorted(out)
