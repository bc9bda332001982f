"""End to end from source: every example's cases through ``clauz3 test`` (one layer per process, TL-6)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "cases").is_dir()) \
    if (ROOT / "examples").is_dir() else []


def _clauz3(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, check=False)


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_cases(name: str) -> None:
    proc = _clauz3("test", "--no-cache", str(ROOT / "examples" / name), cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout


def test_perf1_text_and_second_send(tmp_path: Path) -> None:
    email = ROOT / "examples" / "email"
    if not (email / "tools").is_dir():
        pytest.skip("examples/email not present")
    source = (email / "main.py").read_text()
    proc = _clauz3("prove", "--no-cache", "--trusted-root", "tools/email/trusted", "main.py", cwd=email)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 4 and lines[0].startswith("main: proved precondition send_email at line")
    assert all(line.startswith("main: proved guarantee") for line in lines[1:])
    twice = source.rstrip() + '\n    send_email("bob@example.com", "again")\n'
    prog = email / f"_prover_e2e_{tmp_path.name}.py"
    try:
        prog.write_text(twice)
        proc = _clauz3("prove", "--no-cache", "--trusted-root", "tools/email/trusted", prog.name, cwd=email)
    finally:
        prog.unlink()
    assert proc.returncode == 1
    assert "main: violated guarantee email.at_most(count=1)" in proc.stdout
    assert "  why: 2 matching calls (lines 13, 14) total 2, but the limit is <= 1" in proc.stdout
