"""The guard is measured, not trusted (issue 18): scripts/guard_power.py plants >= 20 bugs, one at a time, in
a scratch copy of clauz3 and the generative check at its default-tier budget must catch >= 90 % of them."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "guard_power.py"


def test_every_plant_still_finds_its_anchor() -> None:
    """Cheap, default tier: a plant whose anchor is gone would silently measure nothing."""
    proc = subprocess.run([sys.executable, str(SCRIPT), "--list"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(proc.stdout.splitlines()) >= 20


@pytest.mark.soak
@pytest.mark.timeout(7200)
def test_the_generative_check_catches_nine_plants_in_ten() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--jobs", "2"], capture_output=True, text=True,
                          cwd=REPO, timeout=7000, check=False)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("guard_power", SCRIPT)
    assert spec is not None and spec.loader is not None
    if "guard_power" in sys.modules:
        return sys.modules["guard_power"]
    module = sys.modules["guard_power"] = importlib.util.module_from_spec(spec)  # for its dataclasses' annotations
    spec.loader.exec_module(module)
    return module


def test_only_a_violation_of_a_wrong_proof_is_a_catch() -> None:
    """Issue 23: a plant that makes the check crash broke the code; the guard saw no wrong proof."""
    gp = load_script()
    crash = "--- violation (prover-crash, run 0): crash NameError: name 'zz' is not defined\ndef main():\n    pass\n"
    assert gp.judge({"violations": 1, "generated": 1}, crash)[0] == "crash"
    assert gp.judge({"error": "Traceback (most recent call last)"}, "")[0] == "error"  # the generator raised
    assert gp.judge({"violations": 1}, "")[0] == "error"
    monitor = "--- violation (monitor, run 2): monitored run: soundness_violation\ndef main():\n    send('bob', 1)\n"
    assert gp.judge({"violations": 1}, monitor)[0] == "caught"
    assert gp.judge({"violations": 0}, "")[0] == "missed"


def test_a_plant_that_crashes_the_prover_is_not_caught(tmp_path: Path) -> None:
    """The real script, the real check in a scratch copy: a plant whose prover raises is reported `crash`
    (it used to count as caught, since the check reports a crash of the prover as a violation)."""
    gp = load_script()
    plant = gp.Plant("crash-the-prover", "prover/api.py",
                     "    started = time.monotonic()\n    ctx = Ctx(program)\n",
                     "    raise RuntimeError('planted crash')\n",
                     "the prover raises on every program")
    args = argparse.Namespace(programs=3, runs=1, seed=0, timeout=900)
    row = gp.check_plant(plant, args, tmp_path)
    out = (tmp_path / "crash-the-prover.out").read_text()
    assert "--- violation (prover-crash" in out, out[-3000:]
    assert row.status == "crash", (row, out[-3000:])
    assert "planted crash" in row.by
