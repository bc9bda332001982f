"""Source-driven runs of the shipped examples through the real checker, each in its own process (TL-6)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
HELPER = Path(__file__).with_name("_run_example.py")

try:
    from clauz3.language import check_program  # noqa: F401
except ImportError:  # the checker is being written in parallel
    pytestmark = pytest.mark.skip(reason="clauz3.language.check_program is not available yet")


def run_example(example: str, case: str, tmp_path: Path, budget: int | None = None) -> dict[str, Any]:
    env = {**os.environ, "CLAUZ3_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, str(HELPER), str(EXAMPLES / example), str(EXAMPLES / example / "cases" / case)]
    if budget is not None:
        cmd.append(str(budget))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=EXAMPLES / example, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_tutorial_program_completes(tmp_path: Path) -> None:
    result = run_example("email", "tutorial_pass.py", tmp_path)
    assert result["outcome"] == "completed", result["error"]
    assert [(r["effect"], r["arguments"]) for r in result["trace"]] == [
        ("tools.email.trusted.effects.send_email", {"addr": "bob@example.com", "msg": "Hi from clauz3"})]


def test_unproved_at_most_is_stopped_by_the_monitor(tmp_path: Path) -> None:
    # Executing a program whose proof failed stands in for "a prover that skipped at_most".
    result = run_example("email", "at_most_two_sends_fail.py", tmp_path)
    assert result["outcome"] == "soundness_violation"
    assert len(result["trace"]) == 1
    assert "would break the proved guarantee email.at_most(count=1)" in result["error"]
    report = Path(result["report_path"])
    assert report.is_file() and stat.S_IMODE(report.stat().st_mode) == 0o600


@pytest.mark.parametrize(("example", "case"), [
    ("bank", "max_spend_branch_pass.py"),
    ("email-from-db", "symbolic_loop_pass.py"),
    ("trading", "sales_match_rows_pass.py"),
    ("trading", "row_mixing_pass.py"),
])
def test_pass_cases_complete_with_real_mocks(example: str, case: str, tmp_path: Path) -> None:
    result = run_example(example, case, tmp_path)
    assert result["outcome"] == "completed", result["error"]
