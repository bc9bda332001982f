"""The proof cache (01 §7.1): HMAC-authenticated JSON entries keyed by everything a verdict depends on.

The key (:func:`cache_key`) is the content that decides a verdict: the program's bytes, the layer
fingerprint (library content), the target, the engine (clauz3, semantics id, z3, Python) with a hash
of the prover's and checker's own source files, and the options that change what is checked (the
import allowlist). Never the program's path: the same program re-submitted from another temporary
file (a retry, a remembered approval, the same starter twice) hits (issue 13); nor the place of a
worker's pinned layer copy: its roots and fingerprint are keyed relative to the copy's directory, and
a hit is relocated to the current copy, so it equals a fresh proof there. Timeouts are not in
the key because only solver-decided results are stored: complete results whose verdicts are all
``proved`` or ``violated``. A hit yields the stored entry with ``cached: true``, relocated to the
caller's path; an entry that fails authentication, does not parse or was stored under another key
is never used. Writers replace entries by atomic rename, so concurrent writers are safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from clauz3.prover.entry import EntryFormatError, JsonValue, ProofEntry
from clauz3.storage.atomic import private_dir, write_atomic
from clauz3.storage.paths import cache_dir
from clauz3.storage.paths import data_dir as _data_dir

MAX_ENTRIES = 10_000
MAX_BYTES = 64 * 1024 * 1024


def cache_enabled() -> bool:
    return (os.environ.get("CLAUZ3_PROOF_CACHE") or "1") != "0"


def fingerprinted_files() -> list[Path]:
    """The source files a verdict depends on: the public faces, ``vocabulary/``, ``base/``, ``language/``, ``prover/``."""
    package = Path(__file__).resolve().parents[1]
    dirs = (package, package / "vocabulary", package / "base", package / "language", package / "prover")
    return sorted(path for d in dirs for path in d.glob("*.py"))


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 over the vocabulary's, checker's and prover's source files: an edited one never reuses a verdict."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in fingerprinted_files():
        try:
            data = path.read_bytes()
        except OSError:
            data = b"<unreadable>"
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def cache_key(
    *,
    engine: str,
    program_sha256: str,
    target: str,
    layer_sha256: str,
    import_roots: Sequence[str],
    allow_imports: Sequence[str],
    pinned: bool = False,
) -> str:
    """CACHE-1: SHA-256 of the canonical JSON of everything a verdict depends on (never the path).

    ``pinned``: ``import_roots`` and ``layer_sha256`` are relative to a pinned copy's directory
    (:func:`pinned_roots`); such keys never equal keys of roots named as they are.
    """
    doc = {
        "pinned": pinned,
        "engine": engine,
        "code": code_fingerprint(),
        "program_sha256": program_sha256,
        "target": target,
        "layer_sha256": layer_sha256,
        "import_roots": list(import_roots),
        "allow_imports": sorted(allow_imports),
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def relocate(entry: ProofEntry, path: str, moves: Mapping[str, str] | None = None) -> ProofEntry:
    """A hit stored for another file of the same bytes, with every mention of that file's path made ``path``.

    ``moves`` maps further old strings to new ones: a pinned layer's directory (issue 13), whose
    copy lives in a fresh private directory per worker, so a hit names the copy this run loads.
    """
    old = entry.path
    pairs = [(o, n) for o, n in (moves or {}).items() if o and o != n]
    if old and old != path:
        pairs.append((old, path))
    if not pairs:
        return replace(entry, path=path)
    pairs.sort(key=lambda pair: -len(pair[0]))  # the longer old string first: it may contain a shorter one

    def fix(value: JsonValue) -> JsonValue:
        if isinstance(value, str):
            for o, n in pairs:
                value = value.replace(o, n)
            return value
        if isinstance(value, list):
            return [fix(v) for v in value]
        if isinstance(value, dict):
            return {k: fix(v) for k, v in value.items()}
        return value

    return replace(ProofEntry.from_json(fix(entry.to_json())), path=path)


def pinned_roots(directory: str | None, roots: Sequence[str]) -> list[str] | None:
    """``roots`` relative to a pinned layer's ``directory`` when every one lies inside it, else None.

    A pinned copy (runs/pinning.py) is the same bytes in a new directory each time; keyed by
    its roots relative to that directory, the same layer keys alike wherever the copy lives.
    """
    if not directory:
        return None
    base = os.path.abspath(directory)
    out: list[str] = []
    for root in roots:
        full = os.path.abspath(root)
        if os.path.commonpath([base, full]) != base:
            return None
        out.append(Path(os.path.relpath(full, base)).as_posix())
    return out


def cacheable(entry: ProofEntry) -> bool:
    """CACHE-2: complete results with every verdict proved or violated."""
    if entry.status not in ("proved", "not_proved"):
        return False
    return all(o.conclusion in ("proved", "violated") for o in entry.obligations)


@dataclass(frozen=True)
class CacheHit:
    """A stored entry (``cached`` true) and the pinned layer directory it was proved under, if any."""

    entry: ProofEntry
    layer_directory: str | None = None


@dataclass
class ProofCache:
    """Entries under ``root``; the MAC secret is ``key_file``'s 32 bytes, or ``secret`` when given.

    A cache given its ``secret`` in memory (the authority's, which no other process holds) shares
    its directory with other holders of other secrets, so it skips entries it cannot authenticate
    instead of deleting them; a ``key_file`` cache deletes them.
    """

    root: Path
    key_file: Path | None
    secret: bytes | None = None

    @classmethod
    def default(cls) -> ProofCache:
        return cls(cache_dir() / "proofs", _data_dir(strict=False) / "proof-cache.key")

    @classmethod
    def private(cls, secret: bytes, name: str = "authority-proofs") -> ProofCache:
        if len(secret) < 32:
            raise ValueError("a proof cache secret has at least 32 bytes")
        return cls(cache_dir() / name, None, secret)

    def _secret(self, create: bool) -> bytes | None:
        if self.secret is not None:
            return self.secret
        if self.key_file is None:
            return None
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
        # Written whole under a private name, then published with link(): a concurrent first writer sees
        # either no key or the complete one, never the empty file O_EXCL creation used to show it (its put
        # then returned False). link() fails if another writer published first: that key wins.
        fd, tmp = tempfile.mkstemp(prefix=".key.", dir=self.key_file.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                os.fchmod(fh.fileno(), 0o600)
                fh.write(secret)
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.link(tmp, self.key_file)
            except FileExistsError:
                return self._secret(create=False)
        except OSError:
            return None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return secret

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    @staticmethod
    def _mac(secret: bytes, key: str, body: str) -> str:
        return hmac.new(secret, key.encode() + b"\n" + body.encode(), hashlib.sha256).hexdigest()

    def get(self, key: str) -> CacheHit | None:
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
            stored = json.loads(body) if ok else None
            entry = ProofEntry.from_json(stored) if ok else None
            moved = stored.get("layer_directory") if isinstance(stored, dict) else None
        except (ValueError, KeyError, TypeError, EntryFormatError):
            entry = None
        if entry is None or not cacheable(entry):
            if self.secret is None:
                path.unlink(missing_ok=True)
            return None
        try:
            os.utime(path)  # recency for LRU eviction
        except OSError:
            pass
        return CacheHit(replace(entry, cached=True), moved if isinstance(moved, str) else None)

    def put(self, key: str, entry: ProofEntry, layer_directory: str | None = None) -> bool:
        """Store ``entry`` (with the pinned layer directory it was proved under, which a hit relocates)."""
        if not cacheable(entry):
            return False
        secret = self._secret(create=True)
        if secret is None:
            return False
        stored = entry.to_json()
        if layer_directory is not None:
            stored["layer_directory"] = layer_directory
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
