"""Issue 18: `prove` prints a `note:` line at each construct where clauz3 deliberately differs from
CPython (docs/semantics.md), with the text of the operation table; notes never change a verdict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRUSTED = HERE / "gen_layers" / "tools" / "gen" / "trusted"

PROGRAM = '''import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import pay, read_float


def total(xs, acc=[]):
    return len(xs) + len(acc)


@clauz3.guarantee(g.max_pay(100))
def main() -> None:
    xs = [1, 2, 3]
    for x in xs:
        if x == 1:
            xs.append(4)
        pay(x)
    s = {3, 1}
    for v in s:
        pay(v)
    f = read_float("f")
    if f in [f, 1.0]:
        pay(1)
    t = sum([0.1, 0.2])
    pay(total([1]))
'''


def prove(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "program.py"
    path.write_text(source)
    return subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", "program.py", "--trusted-root",
                           str(TRUSTED)], capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False)


def test_prove_prints_a_note_at_each_divergence(tmp_path: Path) -> None:
    proc = prove(tmp_path, PROGRAM)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    notes = [line for line in proc.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: program.py:6:1: python-differs: each call that omits `acc` gets a fresh copy of its default "
        "(CPython shares one list between calls)",
        "note: program.py:13:5: python-differs: the loop visits the list `xs` as it was when the loop began; "
        "items appended inside it are not visited",
        "note: program.py:18:5: python-differs: a set iterates in insertion order (CPython's order depends on "
        "hashing)",
        "note: program.py:21:8: python-differs: a NaN is never found by identity: `x in [x]` is False for a NaN, "
        "as `x == x` is",
        "note: program.py:23:9: python-differs: sum adds left to right with + on every Python version "
        "(CPython ≥ 3.12 compensates float sums)",
    ], proc.stderr
    assert "main: proved guarantee gen.max_pay(limit=100)" in proc.stdout


def test_no_note_where_python_and_clauz3_agree(tmp_path: Path) -> None:
    plain = PROGRAM.split("@clauz3.guarantee")[0] + '''@clauz3.guarantee(g.max_pay(100))
def main() -> None:
    xs = [1, 2, 3]
    ys = []
    for x in xs:
        ys.append(x)
    pay(len(ys))
'''
    proc = prove(tmp_path, plain)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # (the helper with a list default is never called here, so it is never checked: no note for it either)
    assert [line for line in proc.stderr.splitlines() if line.startswith("note: ")] == []
