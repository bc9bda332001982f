"""bench_prover's prove_corpus (issue 13): it times real `clauz3 test` runs and is unmeasured when any
library's cases fail, so a corpus that no longer proves can never be reported as fast."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import bench_prover  # noqa: E402


def _library(tmp_path: Path) -> Path:
    lib = tmp_path / "email"
    shutil.copytree(REPO / "examples" / "email", lib, ignore=shutil.ignore_patterns("__pycache__"))
    return lib


def test_a_library_that_proves_is_timed(tmp_path: Path) -> None:
    lib = _library(tmp_path)
    expected = len(list((lib / "cases").glob("*_pass.py")) + list((lib / "cases").glob("*_fail.py")))
    times, failures, cases = bench_prover._corpus(1, {"CLAUZ3_HOME": str(tmp_path / "home")}, [lib])
    assert failures == [] and cases == expected > 0
    assert len(times) == 5  # at least five passes whatever --reps says


def test_a_failing_case_makes_the_corpus_unmeasured(tmp_path: Path) -> None:
    lib = _library(tmp_path)
    # named _pass but breaks its guarantee: `clauz3 test` must report it and the bench must not time it
    shutil.copy(lib / "cases" / "at_most_two_sends_fail.py", lib / "cases" / "at_most_two_sends_pass.py")
    times, failures, _ = bench_prover._corpus(5, {"CLAUZ3_HOME": str(tmp_path / "home")}, [lib])
    assert len(failures) == 1 and failures[0].startswith(f"{lib} (exit 1: ") and len(times) == 1


def test_an_empty_corpus_is_unmeasured(tmp_path: Path) -> None:
    times, failures, cases = bench_prover._corpus(5, {}, [])
    assert times == [] and cases == 0 and failures == ["no library with proof cases was found"]
