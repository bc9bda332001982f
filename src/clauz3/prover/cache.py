"""The proof cache (01 §7.1): HMAC-authenticated JSON entries keyed by everything a verdict depends on.

Only complete results whose verdicts are all ``proved`` or ``violated`` are stored. A hit yields
the stored entry with ``cached: true``; an entry that fails authentication, does not parse or
was stored under another key is deleted and recomputed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.storage.atomic import private_dir, write_atomic
from clauz3.storage.paths import cache_dir
from clauz3.storage.paths import data_dir as _data_dir

MAX_ENTRIES = 10_000
MAX_BYTES = 64 * 1024 * 1024


def cache_enabled() -> bool:
    return (os.environ.get("CLAUZ3_PROOF_CACHE") or "1") != "0"


def cache_key(
    *,
    engine: str,
    program_sha256: str,
    target: str,
    layer_sha256: str,
    import_roots: Sequence[str],
    allow_imports: Sequence[str],
) -> str:
    """CACHE-1: SHA-256 of the canonical JSON of everything a verdict depends on."""
    doc = {
        "engine": engine,
        "program_sha256": program_sha256,
        "target": target,
        "layer_sha256": layer_sha256,
        "import_roots": list(import_roots),
        "allow_imports": sorted(allow_imports),
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def cacheable(entry: Mapping[str, Any]) -> bool:
    """CACHE-2: complete results with every verdict proved or violated."""
    if entry.get("status") not in ("proved", "not_proved"):
        return False
    obligations = entry.get("obligations") or []
    return all(o.get("conclusion") in ("proved", "violated") for o in obligations)


@dataclass
class ProofCache:
    root: Path
    key_file: Path

    @classmethod
    def default(cls) -> ProofCache:
        return cls(cache_dir() / "proofs", _data_dir(strict=False) / "proof-cache.key")

    def _secret(self, create: bool) -> bytes | None:
        try:
            data = self.key_file.read_bytes()
            if len(data) == 32:
                return data
        except FileNotFoundError:
            pass
        except OSError:
            return None
        if not create:
            return None
        secret = secrets.token_bytes(32)
        private_dir(self.key_file.parent)
        try:
            fd = os.open(self.key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return self._secret(create=False)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secret)
        return secret

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    @staticmethod
    def _mac(secret: bytes, key: str, body: str) -> str:
        return hmac.new(secret, key.encode() + b"\n" + body.encode(), hashlib.sha256).hexdigest()

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            raw = path.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError, UnicodeDecodeError):
            return None
        secret = self._secret(create=False)
        try:
            doc = json.loads(raw)
            body = doc["entry"]
            ok = (
                secret is not None
                and doc.get("key") == key
                and isinstance(body, str)
                and hmac.compare_digest(str(doc.get("mac", "")), self._mac(secret, key, body))
            )
            entry = json.loads(body) if ok else None
        except (ValueError, KeyError, TypeError):
            entry = None
        if not isinstance(entry, dict) or not cacheable(entry):
            path.unlink(missing_ok=True)
            return None
        try:
            os.utime(path)  # recency for LRU eviction
        except OSError:
            pass
        entry["cached"] = True
        return entry

    def put(self, key: str, entry: Mapping[str, Any]) -> bool:
        if not cacheable(entry):
            return False
        secret = self._secret(create=True)
        if secret is None:
            return False
        stored = dict(entry)
        stored["cached"] = False
        body = json.dumps(stored, sort_keys=True, separators=(",", ":"))
        doc = {"key": key, "entry": body, "mac": self._mac(secret, key, body)}
        private_dir(self.root)
        try:
            write_atomic(self._path(key), json.dumps(doc).encode())
        except OSError:
            return False
        self._evict()
        return True

    def _evict(self) -> None:
        files: list[tuple[float, int, Path]] = []
        try:
            for sub in self.root.iterdir():
                if sub.is_dir():
                    for f in sub.glob("*.json"):
                        st = f.stat()
                        files.append((st.st_mtime, st.st_size, f))
        except OSError:
            return
        total = sum(size for _, size, _ in files)
        if len(files) <= MAX_ENTRIES and total <= MAX_BYTES:
            return
        files.sort()
        while files and (len(files) > MAX_ENTRIES or total > MAX_BYTES):
            _, size, f = files.pop(0)
            f.unlink(missing_ok=True)
            total -= size
