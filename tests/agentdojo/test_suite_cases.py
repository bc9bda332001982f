"""Every AgentDojo suite's library passes its own cases with required coverage (issue 20: flows,
changes_only and no_sensitive_values_in each have a _pass and a _fail case where a suite uses them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "examples" / "agentdojo"


@pytest.mark.parametrize("suite", ["banking", "slack", "travel", "workspace"])
def test_the_suite_passes_its_cases_with_required_coverage(suite: str, tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CLAUZ3_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "clauz3", "test", "--require-coverage", "--no-cache",
                           str(SUITES / suite)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert last.endswith(" passed, 0 failed") and not last.startswith("0 "), last
    if suite in ("slack", "workspace"):
        assert "PASS web_never_in_dms_fail.py" in done.stdout or "PASS emails_recipients_not_from_reads_fail.py" \
            in done.stdout
