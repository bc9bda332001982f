"""Programs the generators found proving and then breaking (tests/soundness/found_by_generator/).

Each must now be refused, not proved, or prove and run clean through the real prover and interpreter
(``gen_check.py --program``, 40 runs). ``OPEN`` lists the ones whose fix is being made elsewhere (the
family in parentheses); they are run too, and must still break, so the list cannot go stale: when a
fix lands, its program starts passing, this test fails, and the name comes out of ``OPEN``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FOUND = HERE / "found_by_generator"
REPO = HERE.parents[1]

OPEN: dict[str, str] = {}


def programs() -> list[str]:
    return sorted(p.stem for p in FOUND.glob("*.py"))


def test_there_are_programs_and_open_names_exist() -> None:
    assert programs(), "no program in found_by_generator/"
    assert set(OPEN) <= set(programs()), sorted(set(OPEN) - set(programs()))


@pytest.mark.parametrize("name", programs())
def test_found_program_no_longer_breaks(name: str) -> None:
    proc = subprocess.run([sys.executable, str(HERE / "gen_check.py"), "--program", str(FOUND / f"{name}.py"),
                           "--runs", "40"], capture_output=True, text=True, cwd=REPO, timeout=600, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-3000:]
    summary = json.loads(lines[-1])
    if name in OPEN:
        assert summary["violations"] >= 1, (
            f"{name} no longer breaks: its fix ({OPEN[name]}) landed — remove it from OPEN so the test holds it")
    else:
        assert summary["violations"] == 0, proc.stdout[-5000:]
