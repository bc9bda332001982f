"""Issue 10: `clauz3 test` passes on every stdlib and example library, each `*_fail` case for its reason.

Every library with proof cases is listed from the tree (a new library is picked up without editing
this file). For each: every `*_fail.py` declares its reason (`# clauz3-expect: refused CODE` /
`violated KIND` / `unknown REASON`), so `clauz3 test` judges the reason and not merely "not proved";
the command exits 0 and prints one PASS line per case found on disk, so it cannot pass on nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STDLIB = REPO / "src" / "clauz3" / "stdlib"
EXAMPLES = REPO / "examples"
EXPECT = re.compile(r"#\s*clauz3-expect:\s*(.+?)\s*$", re.MULTILINE)
REASON = re.compile(r"^(refused [a-z][a-z0-9-]*|violated [a-z_]+|unknown [a-z][a-z0-9-]*)$")


def libraries() -> list[tuple[str, Path]]:
    """(SOURCE argument, cases folder) for every stdlib library and example with cases."""
    found = [(f"stdlib:{p.name}", p / "tests" / "cases") for p in sorted(STDLIB.iterdir())
             if (p / "tests" / "cases").is_dir()]
    found += [(str(p.relative_to(REPO)), p / "cases") for p in sorted(EXAMPLES.iterdir())
              if (p / "cases").is_dir() and (p / "tools").is_dir()]
    return found


LIBRARIES = libraries()


def test_every_library_is_listed() -> None:
    names = [source for source, _ in LIBRARIES]
    assert sum(n.startswith("stdlib:") for n in names) >= 5, names
    assert sum(n.startswith("examples/") for n in names) >= 8, names
    assert "stdlib:filesystem" in names and "stdlib:db" in names


@pytest.mark.parametrize(("source", "cases"), LIBRARIES, ids=[s for s, _ in LIBRARIES])
def test_clauz3_test_passes_with_every_fail_case_judged_for_its_reason(source: str, cases: Path,
                                                                       tmp_path: Path) -> None:
    files = sorted(p for p in cases.glob("*.py") if p.name.endswith(("_pass.py", "_fail.py")))
    passes = [p for p in files if p.name.endswith("_pass.py")]
    fails = [p for p in files if p.name.endswith("_fail.py")]
    assert passes and fails, f"{source}: needs both pass and fail cases"
    for p in fails:
        reasons = EXPECT.findall(p.read_text())
        assert reasons, f"{p.relative_to(REPO)}: no `# clauz3-expect:` line, so only 'not proved' is checked"
        reason = " ".join(reasons[0].split())
        assert REASON.match(reason), f"{p.relative_to(REPO)}: unreadable expected reason {reason!r}"
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(home)
    proc = subprocess.run([sys.executable, "-m", "clauz3", "test", "--no-cache", "--jobs", "2", source],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=600, check=False)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    lines = proc.stdout.splitlines()
    assert lines[-1] == f"{len(files)} passed, 0 failed", report
    assert sorted(x.removeprefix("PASS ") for x in lines if x.startswith("PASS ")) == [p.name for p in files]
