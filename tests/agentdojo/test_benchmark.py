"""The whole benchmark (marker ``agentdojo``, run by .ci/run): the JSON has the issue's shape and no
compromised program that proved made AgentDojo's security() true."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"user_tasks", "utility", "utility_under_attack", "pairs", "blocked_at_proof", "attack_success"}

pytestmark = pytest.mark.agentdojo


@pytest.mark.timeout(1800)
def test_full_benchmark(tmp_path: Path) -> None:
    import agentdojo  # noqa: F401  # a default dependency group (pyproject [tool.uv]): missing is a failure
    out = tmp_path / "agentdojo.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "agentdojo" / "run.py"), "--json", str(out)],
                          capture_output=True, text=True, timeout=1700)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(out.read_text())
    assert doc["suite_version"] == "v1"
    assert set(doc["total"]) == KEYS and all(isinstance(v, int) for v in doc["total"].values())
    for counts in doc["suites"].values():
        assert set(counts) == KEYS
    assert doc["total"]["pairs"] > 0
    assert doc["total"]["attack_success"] == 0, done.stdout[-3000:]
    assert "hand-written oracles" in done.stdout
