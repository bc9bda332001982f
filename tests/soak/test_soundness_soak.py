"""Soak tier (00 DEC-2): 100 differential runs per pass case (QB-22) and the mutation check (QB-23)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.soak


def libraries() -> list[str]:
    libs = [str(p) for p in sorted((ROOT / "examples").iterdir()) if (p / "cases").is_dir()]
    stdlib = ROOT / "src" / "clauz3" / "stdlib"
    if stdlib.is_dir():
        libs += [str(p) for p in sorted(stdlib.iterdir()) if (p / "tests" / "cases").is_dir()]
    return libs


def test_differential_100_runs_per_case_has_no_findings() -> None:
    proc = subprocess.run([sys.executable, "-m", "clauz3.difftest", "--runs", "100", *libraries()],
                          capture_output=True, text=True, cwd=ROOT, timeout=1500)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1].endswith(" 0 findings, 0 incomplete")


def test_mutation_check_kills_at_least_95_percent() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "mutation_check.py")],
                          capture_output=True, text=True, cwd=ROOT, timeout=1500)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    summary = proc.stdout.strip().splitlines()[-1]
    total, killed = int(summary.split()[0]), int(summary.split()[2])
    assert total >= 100 and killed / total >= 0.95, summary
