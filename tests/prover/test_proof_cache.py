import json
import stat
from dataclasses import replace
from pathlib import Path

from clauz3.prover.cache import ProofCache, cache_key
from clauz3.prover.entry import ObligationRecord, ProofEntry

OBLIGATION = ObligationRecord(index=0, kind="guarantee", description="guarantee x", line=1, column=1,
                              conclusion="proved", source_kind="submitted")
ENTRY = ProofEntry("x.py", "main", "p" * 64, status="proved", obligations=(OBLIGATION,))


def make(tmp_path: Path) -> ProofCache:
    return ProofCache(tmp_path / "cache" / "proofs", tmp_path / "data" / "proof-cache.key")


def key(**over: str) -> str:
    base = dict(engine="e", program_sha256="p", target="main", layer_sha256="l")
    base.update(over)
    return cache_key(import_roots=["a"], allow_imports=[], **base)


def test_roundtrip_marks_cached_and_private(tmp_path: Path) -> None:
    cache = make(tmp_path)
    k = key()
    assert cache.put(k, ENTRY)
    hit = cache.get(k)
    assert hit is not None and hit.entry.cached is True and hit.entry.path == "x.py"
    assert hit.entry == replace(ENTRY, cached=True)  # every field comes back as it went in
    assert stat.S_IMODE(cache.key_file.stat().st_mode) == 0o600
    files = list(cache.root.rglob("*.json"))
    assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600


def test_any_input_changes_the_key() -> None:
    assert len({key(), key(engine="e2"), key(program_sha256="p2"), key(target="t"), key(layer_sha256="l2")}) == 5


def test_unknown_and_refusals_are_never_stored(tmp_path: Path) -> None:
    cache = make(tmp_path)
    unknown = replace(OBLIGATION, conclusion="unknown", reason="timeout")
    assert not cache.put(key(), replace(ENTRY, status="not_proved", obligations=(unknown,)))
    assert not cache.put(key(), replace(ENTRY, status="refused", obligations=()))
    assert cache.get(key()) is None


def test_edited_entry_is_ignored_and_deleted(tmp_path: Path) -> None:
    cache = make(tmp_path)
    k = key()
    cache.put(k, ENTRY)
    path = next(cache.root.rglob("*.json"))
    doc = json.loads(path.read_text())
    doc["entry"] = doc["entry"].replace("proved", "violated", 1)
    path.write_text(json.dumps(doc))
    assert cache.get(k) is None
    assert not path.exists()


def test_entry_without_the_key_is_ignored(tmp_path: Path) -> None:
    cache = make(tmp_path)
    k = key()
    cache.put(k, ENTRY)
    cache.key_file.unlink()
    assert cache.get(k) is None
    assert list(cache.root.rglob("*.json")) == []


def test_entry_moved_to_another_key_is_ignored(tmp_path: Path) -> None:
    cache = make(tmp_path)
    k1, k2 = key(), key(target="other")
    cache.put(k1, ENTRY)
    src = next(cache.root.rglob("*.json"))
    dest = cache.root / k2[:2] / f"{k2}.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(src.read_bytes())
    assert cache.get(k2) is None
