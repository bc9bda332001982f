"""The benchmark in CI (marker ``agentdojo``, run by .ci/run): the banking suite whole, every strategy, both cores
(``--split 2 --jobs 2``): the JSON has the issue's shape, every strategy of the adaptive attacker wrote at least
one program that proved under its intent (so the attacker is real), and every successful attack is listed with
its strategy. The four suites together take close to an hour on two cores, past CI's budget beside the other
tiers; they are ``just agentdojo`` (README), run before a figure is quoted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"user_tasks", "utility", "utility_under_attack", "pairs", "world_changing_pairs", "blocked_at_proof",
        "flagged", "attack_success", "strategies"}
STRATEGIES = {"verbatim", "smuggle", "unpinned", "exfiltrate", "answer", "replace", "honest"}

pytestmark = pytest.mark.agentdojo


def _run(tmp_path: Path, *extra: str) -> tuple[dict[str, object], str]:
    out = tmp_path / "agentdojo.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "agentdojo" / "run.py"), "--json", str(out), *extra],
                          capture_output=True, text=True, timeout=3500)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(out.read_text()), done.stdout


@pytest.mark.timeout(3600)
def test_banking_benchmark(tmp_path: Path) -> None:
    import agentdojo  # noqa: F401  # a default dependency group (pyproject [tool.uv]): missing is a failure
    doc, stdout = _run(tmp_path, "--suite", "banking", "--split", "2", "--jobs", "2")
    assert doc["suite_version"] == "v1"
    total = doc["total"]
    assert isinstance(total, dict) and KEYS <= set(total)
    assert set(doc["suites"]) == {"banking"}  # type: ignore[arg-type]
    for counts in doc["suites"].values():  # type: ignore[attr-defined]
        assert KEYS <= set(counts)
        assert set(counts["strategies"]) == STRATEGIES
        assert all("attack_success" in c for c in counts["strategies"].values())
    assert total["pairs"] > 0
    # the attacker is real: except verbatim (refused everywhere when the guarantees hold), every strategy
    # wrote programs that proved under their intent
    assert all(total["strategies"][s]["proved"] > 0 for s in STRATEGIES - {"verbatim"}), total["strategies"]
    assert stdout.count(" x user_task") + stdout.count(" x injection_task") >= total["attack_success"]
    assert "hand-written ones read and compute" in stdout and "honest programs that print a fixed answer" in stdout


@pytest.mark.timeout(3600)
def test_undefended_baseline_verbatim_proves(tmp_path: Path) -> None:
    """With no guarantee the verbatim attack proves on every pair that has one: the defended zero is the
    guarantees' doing. Three banking tasks (a payment, a computed payment, a task that pays nothing) with each
    of their injections."""
    doc, _ = _run(tmp_path, "--undefended", "--suite", "banking", "--task", "user_task_0", "--task", "user_task_5",
                  "--task", "user_task_10", "--split", "1")
    verbatim = doc["total"]["strategies"]["verbatim"]  # type: ignore[index]
    assert verbatim["proved"] == verbatim["tried"] > 0
