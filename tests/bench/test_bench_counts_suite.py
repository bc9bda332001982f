"""bench_counts' QB-13…QB-20 entries (issue 13): each bar's checks run in a real pytest process; the count
is the checks that failed of those tried, and a skipped or absent check makes the entry unmeasured, never 0."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import bench_counts  # noqa: E402

CHECKS = '''import pytest


@pytest.mark.parametrize("point", ["a", "b", "c"])
def test_point(point):
    assert point != "b", "escaped at b"


def test_other():
    pass
'''
SKIPPED = '''import pytest


@pytest.mark.skip(reason="chromium is not installed at /usr/bin/chromium")
def test_browser():
    pass


def test_fine():
    pass
'''
EMPTY = '''"""No checks here."""
'''


def test_counts_failures_and_refuses_skips_and_empty_bars(tmp_path: Path) -> None:
    (tmp_path / "test_checks.py").write_text(CHECKS)
    (tmp_path / "test_skipped.py").write_text(SKIPPED)
    (tmp_path / "test_empty.py").write_text(EMPTY)
    bars = {"points": ("points", ("test_checks.py::test_point",)),
            "whole": ("checks", ("test_checks.py",)),
            "skips": ("browser checks", ("test_skipped.py",)),
            "empty": ("nothing", ("test_empty.py",))}
    samples = {s.name: s for s in bench_counts.suite_bars(bars, cwd=tmp_path)}
    # "points" claims the parametrised items first; "whole" gets the rest of the file
    assert samples["points"].values == [1.0] and samples["points"].kind == "count"
    assert samples["points"].note == "3 points tried; failed: test_point[b]"
    assert samples["whole"].values == [0.0] and samples["whole"].note == "1 checks tried"
    assert samples["skips"].values == [] and "chromium is not installed" in (samples["skips"].unmeasured or "")
    assert samples["empty"].values == [] and (samples["empty"].unmeasured or "").startswith("no check ran")


def test_every_bar_names_checks_that_exist() -> None:
    for bar, (_, targets) in bench_counts.SUITE_BARS.items():
        for target in targets:
            file, _, name = target.partition("::")
            text = (REPO / file).read_text()
            assert not name or f"def {name}(" in text, (bar, target)
