"""``FilePath(...).value`` / ``DirectoryPath(...).value``: the canonical text as a plain ``str`` (issue 23).

Layers written for the vocabulary read ``path.value`` in their contract helpers; a database layer that did was
refused on every case that used such a helper (``'FilePath' object has no attribute 'value'``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import clauz3

DB = Path(clauz3.__file__).parent / "stdlib" / "db"


@pytest.mark.parametrize(("cls", "text", "value"), [
    (clauz3.FilePath, "data/tasks.db", "data/tasks.db"),
    (clauz3.FilePath, "./data/tasks.db", "data/tasks.db"),
    (clauz3.FilePath, "/var/data/app.db", "/var/data/app.db"),
    (clauz3.DirectoryPath, ".", "."),
    (clauz3.DirectoryPath, "./logs/", "logs"),
])
def test_value_is_the_canonical_text(cls: type[clauz3.FilePath] | type[clauz3.DirectoryPath], text: str, value: str) -> None:
    path = cls(text)
    assert path.value == value == str(path)
    assert type(path.value) is str


def test_a_layer_reading_value_in_its_helpers_proves_its_cases(tmp_path: Path) -> None:
    lib = tmp_path / "db"
    shutil.copytree(DB, lib, ignore=shutil.ignore_patterns("__pycache__"))
    contracts = lib / "tools" / "db" / "trusted" / "contracts.py"
    text = contracts.read_text()
    text, spelled = re.subn(r"\[str\(p\) for p in paths\] \+ \[\"\./\" \+ str\(p\) for p in paths\]",
                            '[p.value for p in paths] + ["./" + p.value for p in paths]', text)
    text, under = re.subn(r"_reads_under\(str\(dir\), ", "_reads_under(dir.value, ", text)
    assert (spelled, under) == (1, 2), "the stdlib db contracts changed shape; update this rewrite"
    contracts.write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "clauz3", "test", str(lib)], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    for case in ("only_write_databases_pass.py", "only_write_databases_fail.py", "only_read_under_pass.py",
                 "never_read_under_pass.py"):
        assert f"PASS {case}" in done.stdout
    assert re.search(r"^\d+ passed, 0 failed$", done.stdout, re.M), done.stdout[-500:]
