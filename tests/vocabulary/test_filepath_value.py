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


PROGRAM = '''"""Reads through FilePath(...).value: the checker, the prover and the interpreter agree on the text."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import create_table, insert_row, read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.never_read_under("private"))
def main() -> None:
    create_table(TaskRow, clauz3.FilePath("./data/tasks.db").value, "tasks")
    insert_row(clauz3.FilePath("data/tasks.db").value, "tasks", {"title": "t", "priority": 1, "done": False})
    rows = read_rows(TaskRow, clauz3.FilePath("{read}").value, "tasks", {})
    print(len(rows), clauz3.FilePath("./data/tasks.db").value, clauz3.DirectoryPath("./logs/").value)
'''
RUN_EXAMPLE = Path(__file__).parents[1] / "interp" / "_run_example.py"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"))
    return env


def test_a_program_reading_value_of_a_path_literal_proves_is_refuted_and_runs(tmp_path: Path) -> None:
    """``clauz3.FilePath("…").value`` in a program is the literal's canonical text for all three: proved when the
    guarantee holds, a violation (not a refusal) when the path is under the forbidden folder, and the run reads
    the real SQLite file at that text."""
    import json

    lib = tmp_path / "db"
    shutil.copytree(DB, lib, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    good, bad = project / "good.py", project / "bad.py"
    good.write_text(PROGRAM.replace("{read}", "data/tasks.db"))
    bad.write_text(PROGRAM.replace("{read}", "private/tasks.db"))
    done = subprocess.run(
        [sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", "--trusted-root",
         str(lib / "tools" / "db" / "trusted"), "--import-root", str(lib), str(good), str(bad)],
        capture_output=True, text=True, env=_env(tmp_path), cwd=project, timeout=600)
    entries = {Path(e["path"]).name: e for e in json.loads(done.stdout)["entries"]}
    assert entries["good.py"]["status"] == "proved", entries["good.py"]
    assert entries["bad.py"]["status"] == "not_proved", entries["bad.py"]  # refuted: it was checked, not refused
    verdicts = {o["kind"]: o["conclusion"] for o in entries["bad.py"]["obligations"] if o["kind"] == "guarantee"}
    assert verdicts == {"guarantee": "violated"}, entries["bad.py"]["obligations"]

    ran = subprocess.run([sys.executable, str(RUN_EXAMPLE), str(lib), str(good)], capture_output=True, text=True,
                         env=_env(tmp_path), cwd=project, timeout=600)
    assert ran.returncode == 0, ran.stderr[-2000:]
    result = json.loads(ran.stdout)
    assert result["outcome"] == "completed", result
    assert result["stdout"] == "1 data/tasks.db logs\n"
    assert (project / "data" / "tasks.db").is_file()


def test_value_on_a_str_that_is_not_a_path_literal_is_refused(tmp_path: Path) -> None:
    """A plain ``str`` has no ``.value`` (CPython raises AttributeError), so the checker refuses it."""
    lib = tmp_path / "db"
    shutil.copytree(DB, lib, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    program = tmp_path / "plain.py"
    program.write_text(PROGRAM.replace('clauz3.FilePath("{read}").value', '"data/tasks.db".value'))
    done = subprocess.run(
        [sys.executable, "-m", "clauz3", "prove", "--no-cache", "--trusted-root", str(lib / "tools" / "db" / "trusted"),
         "--import-root", str(lib), str(program)], capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path,
        timeout=600)
    assert done.returncode != 0
    assert "unsupported-expression: attribute `\"data/tasks.db\".value` on str" in done.stdout + done.stderr
