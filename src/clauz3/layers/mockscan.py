"""Mock declarations of a domain from source alone (05 MOCK-2, MOCK-3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.layers.scan import scan_root


@dataclass
class MockReport:
    kind: str  # "mock", "mixed", "unmarked" or "real"
    effects: list[dict[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "effects": list(self.effects), "errors": list(self.errors)}


def classify(statuses: list[str], errors: list[str]) -> str:
    """MOCK-3, first match wins. No effects at all is never called ``mock``: there is nothing simulated to claim."""
    if statuses and all(s == "mock" for s in statuses):
        return "mock"
    if any(s == "mock" for s in statuses):
        return "mixed"
    if errors or any(s == "unmarked" for s in statuses):
        return "unmarked"
    return "real"


def scan_mocks(trusted_roots: list[Path]) -> MockReport:
    """One report over the given roots (normally the single trusted root of one domain)."""
    effects: list[dict[str, str]] = []
    errors: list[str] = []
    for root in trusted_roots:
        if not root.is_dir():
            errors.append(f"{root}: not a directory")
            continue
        if root.is_symlink():
            errors.append(f"{root}: symbolic link")
            continue
        result = scan_root(root)
        errors.extend(result.errors)
        effects.extend({"name": e.name, "status": e.status} for e in result.effects)
    return MockReport(classify([e["status"] for e in effects], errors), effects, errors)
