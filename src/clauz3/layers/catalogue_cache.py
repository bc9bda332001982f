"""``<data>/catalog/<sha256(source)>.json``: metadata of remote sources, written only by a review (05 §3, SRC-4)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from clauz3.layers.locations import make_private_dir
from clauz3.storage.atomic import write_atomic

SCHEMA_VERSION = 1


def cache_path(data: Path, source: str) -> Path:
    return data / "catalog" / (hashlib.sha256(source.encode("utf-8")).hexdigest() + ".json")


def read_cached(data: Path, source: str) -> dict[str, Any] | None:
    """The cached record, or None when absent, unreadable or written by a newer clauz3."""
    path = cache_path(data, source)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            record = json.loads(fh.read(4 * 1024 * 1024))
    except (OSError, ValueError):
        return None
    if (not isinstance(record, dict) or record.get("schema_version") != SCHEMA_VERSION
            or record.get("source") != source or not isinstance(record.get("domains"), dict)):
        return None
    return record


def write_cached(data: Path, source: str, revision: str, domains: dict[str, dict[str, Any] | None]) -> None:
    make_private_dir(cache_path(data, source).parent)
    record = {"schema_version": SCHEMA_VERSION, "source": source, "revision": revision, "domains": domains}
    write_atomic(cache_path(data, source), json.dumps(record, sort_keys=True, indent=1).encode("utf-8"))
