"""Profile signatures and eligibility (03 §9.3), derived statically: no second proving process."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import platform
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from clauz3.approvals.layerscan import BoundGuarantee, LayerScan, canonical_arg
from clauz3.approvals.requests import ApprovalRequest
from clauz3.base.astparse import parse_ast

REMEMBERED_REASON = "Remembered decision for this exact contract in this project"
_engine: str | None = None


def engine_sha256() -> str:
    """sha256 over the clauz3 version, its package files, the Z3 version and the Python version (once)."""
    global _engine
    if _engine is None:
        import clauz3

        h = hashlib.sha256()
        h.update(f"clauz3 {getattr(clauz3, '__version__', '')}\n".encode())
        try:
            h.update(f"z3 {metadata.version('z3-solver')}\n".encode())
        except metadata.PackageNotFoundError:
            h.update(b"z3 none\n")
        h.update(f"python {platform.python_version()}\n".encode())
        root = Path(clauz3.__file__).parent
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".py", ".js", ".css", ".svg", ".html", ".json", ".yaml", ".md")):
                    path = Path(dirpath) / name
                    h.update(str(path.relative_to(root)).encode() + b"\0")
                    h.update(hashlib.sha256(path.read_bytes()).digest())
        _engine = h.hexdigest()
    return _engine


def _normalised_expression(expression: str) -> str:
    text = expression.strip().removeprefix("@")
    try:
        return ast.unparse(parse_ast(text, mode="eval"))
    except (SyntaxError, ValueError):
        return text


@dataclass(frozen=True)
class Signature:
    eligible: bool
    reason: str | None
    basis: dict[str, Any]
    signature: str


def compute_signature(request: ApprovalRequest, *, project: str, scan: LayerScan,
                      bound: list[BoundGuarantee], imports: list[str]) -> Signature:
    guarantees: list[Any] = []
    reason: str | None = None
    for b in bound:
        if b.contract is not None and b.args is not None:
            guarantees.append({"symbol": b.contract.symbol,
                               "args": {k: canonical_arg(v) for k, v in b.args.items()}})
        else:
            guarantees.append({"expression": _normalised_expression(b.expression)})
            reason = reason or b.reason
    guarantees.sort(key=lambda g: json.dumps(g, sort_keys=True))
    basis = {
        "schema": 1,
        "project": project,
        "owner_uid": os.getuid(),
        "target": request.target,
        "imports": imports,
        "guarantees": guarantees,
        "coverage": [c.to_json() for c in request.coverage],
        "trusted_roots": list(scan.trusted_roots),
        "import_roots": list(scan.import_roots),
        "layer": dict(sorted(scan.files.items())),
        "engine": engine_sha256(),
    }
    digest = hashlib.sha256(json.dumps(basis, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    if not bound:
        reason = "the program states no guarantees"
    eligible = reason is None
    shown = None if eligible else f"This contract must be approved each time: {reason}."
    return Signature(eligible, shown, basis, digest)
