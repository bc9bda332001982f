"""Helpers for the library pipeline tests: fake sources, isolated data dirs, tree snapshots."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

EFFECTS = '''\
import clauz3


@clauz3.trusted
@clauz3.mock
def send(addr: str) -> None:
    """Send to addr."""
'''
CONTRACTS = '''\
import clauz3


@clauz3.contract(description="at most {n} sends")
def at_most(n: int) -> clauz3.ContractSpec:
    """Bounded sends."""
    return clauz3.no_guarantees()
'''


def manifest(name: str, *, deps: list[str] | None = None, extra: str = "") -> str:
    text = (f"schema_version: 1\nname: {name}\ntitle: Title of {name}\nsummary: Summary of {name}.\n"
            f"description: About {name}.\n")
    if deps:
        text += "dependencies:\n" + "".join(f"  - {d}\n" for d in deps)
    return text + extra


def make_source(root: Path, domains: dict[str, dict[str, str] | None], *, package: str | None = None) -> Path:
    """A folder holding ``tools/<d>/``; each value maps relative paths to text (None: a default domain)."""
    for name, files in domains.items():
        files = files if files is not None else {
            "clauz3.yaml": manifest(name), "trusted/effects.py": EFFECTS, "trusted/contracts.py": CONTRACTS}
        for rel, text in files.items():
            path = root / "tools" / name / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if package is not None:
        (root / "clauz3.yaml").write_text(package)
    return root


def snapshot(path: Path) -> dict[str, tuple[str, int] | str]:
    """Every entry below ``path``: files as (sha256, mode), links as their target, dirs as "dir"."""
    out: dict[str, tuple[str, int] | str] = {}
    if not os.path.lexists(path):
        return out
    for dirpath, dirnames, filenames in os.walk(path):
        for name in dirnames + filenames:
            full = Path(dirpath) / name
            rel = str(full.relative_to(path))
            if full.is_symlink():
                out[rel] = "link:" + os.readlink(full)
            elif full.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = (hashlib.sha256(full.read_bytes()).hexdigest(), full.stat().st_mode & 0o777)
    return out
