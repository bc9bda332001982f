"""Canonical JSON bytes (RCP-1): what receipts sign and layer digests hash, and the digests a receipt binds,
in their own module so a process that only hashes a layer (the bridge's warm prover, a worker pinning its
layer) or builds a request (the bridge) loads no cryptography."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any


def canonical_json(value: Any) -> bytes:
    """``sort_keys``, compact separators, ASCII only; floats are refused so encodings stay unique."""
    _no_floats(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def _no_floats(value: Any) -> None:
    if isinstance(value, float):
        raise ValueError("canonical JSON holds integers only")
    if isinstance(value, dict):
        for item in value.values():
            _no_floats(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _no_floats(item)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def program_sha256(program: str) -> str:
    return sha256_text(program)


def consent_sha256(coverage: Sequence[Any], guarantees: Sequence[str], target: str) -> str:
    """sha256 of canonical ``{"coverage", "guarantees", "target"}`` exactly as submitted."""
    doc = {"coverage": list(coverage), "guarantees": list(guarantees), "target": target}
    return hashlib.sha256(canonical_json(doc)).hexdigest()
