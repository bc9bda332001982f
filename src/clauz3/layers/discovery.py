"""Default import roots (05 CLI-10), domain discovery (05 SRC-2) and the both-trees rule (05 CLI-11)."""

from __future__ import annotations

import keyword
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from clauz3.layers.errors import LayersError


class DiscoveryError(LayersError):
    """A layout conflict that stops the command (exit 2)."""


@dataclass(frozen=True)
class Domain:
    name: str  # "email" or "acme/lims"
    trusted_root: Path
    import_root: Path

    @property
    def package(self) -> str:
        return "tools." + self.name.replace("/", ".") + ".trusted"


def _norm(path: Path) -> Path:
    return Path(os.path.normpath(path.absolute()))


def default_import_roots(project: Path, program: Path | None = None) -> list[Path]:
    """``<project>/.clauz3``, ``<project>``, then the program's folder and its ``.clauz3``; duplicates dropped."""
    project = _norm(project)
    candidates = [project / ".clauz3", project]
    if program is not None:
        parent = _norm(program).parent
        candidates += [parent, parent / ".clauz3"]
    out: list[Path] = []
    seen: set[Path] = set()
    for c in candidates:
        key = Path(os.path.realpath(c))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _identifier(part: str) -> bool:
    return part.isidentifier() and not keyword.iskeyword(part)


def _subdirs(path: Path) -> list[Path]:
    try:
        return sorted(p for p in path.iterdir() if p.is_dir())
    except OSError:
        return []


def domains_in(import_root: Path, warn: Callable[[str], None] | None = None) -> list[Domain]:
    """Domains of one import root: ``tools/<d>/trusted`` or ``tools/<org>/<d>/trusted`` (05 SRC-2)."""
    warn = warn or (lambda _msg: None)
    tools = import_root / "tools"
    if not tools.is_dir():
        return []
    if tools.is_symlink():
        warn(f"skipping {tools}: reached through a symbolic link")
        return []
    found: list[Domain] = []

    def accept(parts: list[str], trusted: Path, linked: bool) -> None:
        if linked or trusted.is_symlink():
            warn(f"skipping {trusted}: reached through a symbolic link")
        elif not all(_identifier(p) for p in parts):
            warn(f"skipping {trusted}: {'/'.join(parts)} is not a valid domain name")
        else:
            found.append(Domain("/".join(parts), trusted, import_root))

    for first in _subdirs(tools):
        if first.name == "__pycache__":
            continue
        first_linked = first.is_symlink()
        if (first / "trusted").is_dir():
            accept([first.name], first / "trusted", first_linked)
            continue  # a trusted/ inside an accepted domain is ignored
        for second in _subdirs(first):
            if (second / "trusted").is_dir():
                accept([first.name, second.name], second / "trusted", first_linked or second.is_symlink())
    return found


def discover_domains(import_roots: list[Path], warn: Callable[[str], None] | None = None) -> list[Domain]:
    """Every domain under the import roots, first root winning; CLI-11 conflicts raise :class:`DiscoveryError`."""
    roots = [_norm(r) for r in import_roots]
    for root in roots:
        if (root / "tools" / "__init__.py").exists():
            raise DiscoveryError(f"{root / 'tools' / '__init__.py'} must not exist (tools/ is a namespace folder)")
    per_root = {root: domains_in(root, warn) for root in roots}
    real = {root: Path(os.path.realpath(root)) for root in roots}
    # The project's authored tree and its installed tree must never both provide a domain (05 CLI-11).
    for root in roots:
        installed = next((r for r in roots if real[r] == Path(os.path.realpath(root / ".clauz3"))), None)
        if installed is None:
            continue
        authored_names = {d.name for d in per_root[root]}
        for d in per_root[installed]:
            if d.name in authored_names:
                raise DiscoveryError(f"domain {d.name} is provided by both .clauz3/tools and tools")
    out: list[Domain] = []
    seen: set[str] = set()
    for root in roots:
        for d in per_root[root]:
            if d.name not in seen:
                seen.add(d.name)
                out.append(d)
    return out


def discover_trusted_roots(import_roots: list[Path], warn: Callable[[str], None] | None = None) -> list[Path]:
    return [d.trusted_root for d in discover_domains(import_roots, warn)]
