"""bench/run.py (issue 13): an entry that could not be measured is printed and makes the exit status 1,
never silently dropped; a missed count bar fails too; a missed timing target is printed but exits 0."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUN = REPO / "bench" / "run.py"

GOOD = '''from _common import Sample

def collect(reps):
    return [Sample("fast", [0.1] * reps, target=1.0)]
'''
SLOW = '''from _common import Sample

def collect(reps):
    return [Sample("slow", [2.0] * reps, target=1.0)]
'''
BOOM = '''EXPECTED = ("boom_a", "boom_b")

def collect(reps):
    raise RuntimeError("chromium is not installed at /nowhere/chromium")
'''
EMPTY = '''from _common import Sample

def collect(reps):
    return [Sample("empty", [], target=1.0)]
'''
DROPPED = '''from _common import Sample

EXPECTED = ("kept", "dropped")

def collect(reps):
    return [Sample("kept", [0.5] * reps, target=1.0)]
'''
MARKED = '''from _common import Sample, unmeasured

def collect(reps):
    return [unmeasured("marked", "needs a kernel with Landlock")]
'''
COUNT = '''from _common import Sample

def collect(reps):
    return [Sample("qb_escapes", [2.0], unit="count", target=0, kind="count", note="2 of 10 tries")]
'''


def bench(tmp_path: Path, modules: dict[str, str], *only: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    folder = tmp_path / "modules"
    folder.mkdir()
    for name, text in modules.items():
        (folder / f"bench_{name}.py").write_text(text)
    results = tmp_path / "results"
    done = subprocess.run([sys.executable, str(RUN), "--reps", "3", "--dir", str(folder), "--results", str(results),
                           *only], capture_output=True, text=True, timeout=120)
    return done, json.loads((results / "latest.json").read_text())


def test_all_measured_exits_0_and_a_missed_timing_is_printed(tmp_path: Path) -> None:
    done, results = bench(tmp_path, {"good": GOOD, "slow": SLOW})
    assert done.returncode == 0, done.stderr
    assert "≤ 1 s ok" in done.stdout and "≤ 1 s MISSED" in done.stdout
    assert "MISSED target: slow 2 s > 1" in done.stderr
    assert results["fast"]["n"] == 3 and results["slow"]["median"] == 2.0


def test_a_module_that_raises_names_each_of_its_entries_and_exits_1(tmp_path: Path) -> None:
    done, results = bench(tmp_path, {"good": GOOD, "boom": BOOM})
    assert done.returncode == 1
    for name in ("boom_a", "boom_b"):
        assert f"UNMEASURED: {name}: bench_boom raised RuntimeError: chromium is not installed at /nowhere/chromium" \
            in done.stderr
        assert "chromium is not installed" in results[name]["unmeasured"]
    assert results["fast"]["n"] == 3  # the other module's figures are still there


def test_empty_dropped_and_marked_entries_are_unmeasured(tmp_path: Path) -> None:
    done, results = bench(tmp_path, {"empty": EMPTY, "dropped": DROPPED, "marked": MARKED})
    assert done.returncode == 1
    assert "UNMEASURED: empty: no values were recorded" in done.stderr
    assert "UNMEASURED: dropped: bench_dropped returned no dropped entry" in done.stderr
    assert "UNMEASURED: marked: needs a kernel with Landlock" in done.stderr
    assert "bench: 3 entries unmeasured" in done.stderr
    assert results["kept"]["median"] == 0.5 and set(results) == {"kept", "empty", "dropped", "marked"}


def test_a_missed_count_bar_exits_1(tmp_path: Path) -> None:
    done, results = bench(tmp_path, {"count": COUNT})
    assert done.returncode == 1
    assert "FAILED count bar: qb_escapes 2 count > 0" in done.stderr
    assert "(2 of 10 tries)" in done.stdout and results["qb_escapes"]["median"] == 2.0


def test_an_unknown_module_name_is_unmeasured(tmp_path: Path) -> None:
    done, results = bench(tmp_path, {"good": GOOD}, "good", "nosuch")
    assert done.returncode == 1
    assert "UNMEASURED: bench_nosuch: no such benchmark module" in done.stderr
    assert results["fast"]["n"] == 3


def test_a_module_that_fails_to_import_is_unmeasured(tmp_path: Path) -> None:
    done, results = bench(tmp_path, {"good": GOOD, "broken": "import no_such_module_for_bench\n"})
    assert done.returncode == 1 and results["fast"]["n"] == 3
    assert "UNMEASURED: bench_broken: module failed to load: ModuleNotFoundError" in done.stderr
