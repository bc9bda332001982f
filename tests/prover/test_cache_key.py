"""Issue 13: the proof cache is keyed by what decides the verdict (content), never the program's path.

The CLI tests run real ``clauz3 prove`` processes on a copy of the email library; a hit is observed
through the entry's ``cached`` flag (set only when the solver was skipped), never through timing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from clauz3.prover.cache import (
    ProofCache,
    cache_key,
    code_fingerprint,
    fingerprinted_files,
    pinned_roots,
    relocate,
)
from clauz3.prover.entry import ObligationRecord, ProofEntry

REPO = Path(__file__).resolve().parents[2]
MAIN = (REPO / "examples" / "email" / "main.py").read_bytes()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(REPO / "examples" / "email" / "tools", proj / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("first", "second"):
        (proj / name).mkdir()
    (proj / "first" / "prog.py").write_bytes(MAIN)
    (proj / "second" / "other.py").write_bytes(MAIN)
    return proj


def prove(project: Path, rel: str, *extra: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(project.parent / "home"), CLAUZ3_CACHE=str(project.parent / "cache"))
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--trusted-root", "tools/email/trusted",
                          "--import-root", ".", "--json", *extra, rel],
                         cwd=project, env=env, capture_output=True, text=True, timeout=120)
    entry: dict[str, Any] = json.loads(out.stdout)["entries"][0]
    return entry


def verdicts(entry: dict[str, Any]) -> list[tuple[str, str]]:
    return [(o["description"], o["conclusion"]) for o in entry["obligations"]]


def test_the_same_bytes_from_another_path_skip_the_solver(project: Path) -> None:
    first = prove(project, "first/prog.py")
    assert first["cached"] is False and first["status"] == "proved"
    second = prove(project, "second/other.py")
    assert second["cached"] is True, "the second identical program was proved again"
    assert second["path"] == "second/other.py" and "first/prog.py" not in json.dumps(second)
    assert verdicts(second) == verdicts(first)
    assert second["ir_sha256"] != first["ir_sha256"]  # the IR names its file: checked again at the new path


def test_a_same_size_library_edit_with_its_mtime_restored_misses(project: Path) -> None:
    assert prove(project, "first/prog.py")["status"] == "proved"
    contracts = project / "tools" / "email" / "trusted" / "contracts.py"
    st = contracts.stat()
    text = contracts.read_text()
    edited = text.replace("return effect(send_email).count() <= count", "return effect(send_email).count() <  count")
    assert edited != text and len(edited) == len(text)
    contracts.write_text(edited)
    os.utime(contracts, ns=(st.st_atime_ns, st.st_mtime_ns))
    again = prove(project, "second/other.py")
    assert again["cached"] is False
    assert ("guarantee emails.at_most(1)", "violated") in verdicts(again)


def test_the_no_cache_flag_only_costs_time(project: Path) -> None:
    cached = prove(project, "first/prog.py")
    fresh = prove(project, "second/other.py", "--no-cache")
    assert fresh["cached"] is False and verdicts(fresh) == verdicts(cached)


BASE = dict(engine="e", program_sha256="p" * 64, target="main", layer_sha256="l" * 64, import_roots=["/r"],
            allow_imports=["json"])


@pytest.mark.parametrize("field,value", [("engine", "e2"), ("program_sha256", "q" * 64), ("target", "other"),
                                         ("layer_sha256", "m" * 64), ("import_roots", ["/s"]),
                                         ("allow_imports", ["json", "re"])])
def test_every_verdict_input_changes_the_key(field: str, value: Any) -> None:
    assert cache_key(**{**BASE, field: value}) != cache_key(**BASE)  # type: ignore[arg-type]
    assert cache_key(**BASE) == cache_key(**dict(BASE))  # type: ignore[arg-type]


def test_the_key_covers_the_provers_own_code() -> None:
    assert len(code_fingerprint()) == 64


def test_the_fingerprint_reads_every_module_a_verdict_depends_on() -> None:
    # Issue 23 moved the vocabulary into vocabulary/ and base/: an edited contract or decorator module
    # must still change the key, as it did when those modules sat at the top of the package.
    import clauz3

    package = Path(clauz3.__file__).resolve().parent
    read = {p.relative_to(package).as_posix() for p in fingerprinted_files()}
    for sub in ("vocabulary", "base", "language", "prover"):
        here = {p.relative_to(package).as_posix() for p in (package / sub).glob("*.py")}
        assert len(here) >= 3 and here <= read, sub
    assert {"spec.py", "vocabulary/contracts.py", "vocabulary/decorators.py", "base/errors.py"} <= read


ENTRY = ProofEntry("/tmp/a/prog.py", "main", "p" * 64, status="proved", warnings_text=("/tmp/a/prog.py:3:1: w",),
                   obligations=(ObligationRecord(index=0, kind="guarantee", description="guarantee x", line=3,
                                                 column=1, conclusion="proved", source_kind="submitted"),))


def test_relocate_rewrites_every_mention_of_the_old_path() -> None:
    moved = relocate(ENTRY, "/tmp/b/other.py")
    assert moved.path == "/tmp/b/other.py" and moved.warnings_text == ("/tmp/b/other.py:3:1: w",)


def test_a_forged_entry_is_never_used(tmp_path: Path) -> None:
    cache = ProofCache(tmp_path / "proofs", tmp_path / "key")
    key = "ab" + "0" * 62
    assert cache.put(key, ENTRY)
    path = tmp_path / "proofs" / "ab" / f"{key}.json"
    doc = json.loads(path.read_text())
    doc["entry"] = doc["entry"].replace('"proved"', '"proved" ', 1)  # any change breaks the MAC
    path.write_text(json.dumps(doc))
    assert cache.get(key) is None and not path.exists()
    # a cache with an in-memory secret never trusts the key file's MAC and leaves others' entries alone
    assert cache.put(key, ENTRY)
    private = ProofCache(tmp_path / "proofs", None, b"s" * 32)
    assert private.get(key) is None and path.exists()
    assert private.put(key, ENTRY) and private.get(key) is not None and cache.get(key) is None


def test_concurrent_writers_leave_one_valid_entry(tmp_path: Path) -> None:
    cache = ProofCache(tmp_path / "proofs", tmp_path / "key")
    key = "cd" + "1" * 62
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for _ in range(20):
                assert cache.put(key, replace(ENTRY, elapsed_ms=n))
                got = cache.get(key)
                assert got is not None and got.entry.cached is True
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert [p.name for p in (tmp_path / "proofs" / "cd").iterdir()] == [f"{key}.json"]


def test_a_pinned_key_never_equals_a_key_of_roots_named_as_they_are() -> None:
    assert cache_key(**BASE, pinned=True) != cache_key(**BASE)  # type: ignore[arg-type]


def test_pinned_roots_are_relative_only_when_all_lie_inside_the_copy() -> None:
    assert pinned_roots("/tmp/c/layer-1", ["/tmp/c/layer-1/0", "/tmp/c/layer-1/1/x"]) == ["0", "1/x"]
    assert pinned_roots("/tmp/c/layer-1", ["/tmp/c/layer-1/0", "/tmp/c/layer-10/0"]) is None
    assert pinned_roots("/tmp/c/layer-1", ["/elsewhere"]) is None
    assert pinned_roots(None, ["/tmp/c/layer-1/0"]) is None


def test_relocate_moves_a_pinned_layer_directory_too() -> None:
    entry = replace(ENTRY, diagnostics=("/tmp/c/layer-1/0/tools/x.py:2:1",))
    moved = relocate(entry, "/tmp/b/other.py", {"/tmp/c/layer-1": "/tmp/d/layer-2"})
    assert moved.diagnostics == ("/tmp/d/layer-2/0/tools/x.py:2:1",) and moved.path == "/tmp/b/other.py"


def _comparable(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry without what differs between any two fresh proofs too: the time each one took."""
    out = {k: v for k, v in entry.items() if k not in ("cached", "elapsed_ms")}
    out["obligations"] = [{k: v for k, v in o.items() if k != "elapsed_ms"} for o in entry["obligations"]]
    return out


# One proof per process, as one cold worker makes (one layer per process, TL-6).
PROVE_PINNED = """
import json, sys
from pathlib import Path
from clauz3.prover.pipeline import ProofRequest, prove_file
doc = json.loads(sys.argv[1])
req = ProofRequest(path=Path(doc["path"]), trusted_roots=[Path(p) for p in doc["trusted"]],
                   import_roots=[Path(p) for p in doc["imports"]], source=Path(doc["source"]).read_bytes(),
                   use_cache=doc["use_cache"], layer_directory=Path(doc["directory"]))
print(json.dumps(prove_file(req, project_root=Path(doc["project"])).entry.to_json()))
"""


def test_a_hit_under_another_pinned_copy_equals_a_fresh_proof_there(project: Path, tmp_path: Path) -> None:
    """Soundness of keying away the copy's place: the relocated hit is what a fresh proof there says."""
    from clauz3.runs.pinning import pin_layer

    roots = [str(project / "tools" / "email" / "trusted")], [str(project)]
    copies = [pin_layer(*roots, tmp_path / "scratch") for _ in range(2)]
    assert copies[0].directory != copies[1].directory and copies[0].sha256 == copies[1].sha256
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"), CLAUZ3_PROOF_CACHE="1")

    def prove_in(copy: Any, use_cache: bool) -> dict[str, Any]:
        doc = {"path": str(tmp_path / "prog.py"), "trusted": list(copy.trusted_roots),
               "imports": list(copy.import_roots), "source": str(project / "first" / "prog.py"),
               "use_cache": use_cache, "directory": copy.directory, "project": str(project)}
        out = subprocess.run([sys.executable, "-c", PROVE_PINNED, json.dumps(doc)], env=env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        entry: dict[str, Any] = json.loads(out.stdout)
        return entry

    first = prove_in(copies[0], True)
    hit = prove_in(copies[1], True)
    fresh = prove_in(copies[1], False)
    assert first["cached"] is False and first["status"] == "proved"
    assert hit["cached"] is True and fresh["cached"] is False
    assert _comparable(hit) == _comparable(fresh)
    assert copies[0].directory not in json.dumps(hit)
