"""Canonical JSON bytes (RCP-1): what receipts sign and layer digests hash, in its own module so a process
that only hashes a layer (the bridge's warm prover, a worker pinning its layer) loads no cryptography."""

from __future__ import annotations

import json
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
