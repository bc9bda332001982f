"""05 §14 "Skills" acceptance lines: snapshots are frozen at launch and read by id only (SKL-4, SKL-5),
recipes prove and hide when a selected copy differs from the stdlib by one byte (SKL-4), and
`install --skills` keeps a hand-written SKILL.md (SKL-6)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.bridge.schemas import TOOLS
from clauz3.bridge.skills import AUTHORING_ID, UNKNOWN, SkillSnapshot
from clauz3.layers.recipes import (
    PREFIX,
    STDLIB_DIR,
    USES,
    all_recipes,
    available_recipes,
    bundled_domain,
    domain_of_root,
    recipes_for_roots,
)
from clauz3.layers.skilldoc import MARKER

NAMES = ["read-file", "count-lines", "write-file", "write-and-read", "replace-text", "grep-files", "list-files",
         "sqlite-table"]


def test_skill_edits_after_launch_are_invisible_and_reads_are_by_id_only(tmp_path: Path) -> None:
    folder = tmp_path / "skills" / "house"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: house\n---\nOriginal rules.\n")
    snap = SkillSnapshot.take(None, [str(tmp_path / "skills")])
    _text, listing = snap.list_result()
    ids = [s["id"] for s in listing["skills"]]
    assert ids[0] == AUTHORING_ID and len(ids) == 2
    (folder / "SKILL.md").write_text("Edited after launch.\n")
    (tmp_path / "skills" / "new").mkdir()
    (tmp_path / "skills" / "new" / "SKILL.md").write_text("Added after launch.\n")
    doc = snap.read(ids[1])
    assert doc is not None and doc.text == "---\nname: house\n---\nOriginal rules.\n"
    assert [s["id"] for s in snap.list_result()[1]["skills"]] == ids
    for path_like in (str(folder / "SKILL.md"), "skills/house/SKILL.md", "../house/SKILL.md", "house",
                      "skill:../house", "file://" + str(folder / "SKILL.md")):
        assert snap.read(path_like) is None
    # The tool itself takes only an id: no path, folder or file parameter exists.
    read_skill = next(t for t in TOOLS if t.name == "read_skill")
    assert set(read_skill.input_schema["properties"]) == {"id"}
    assert read_skill.input_schema["additionalProperties"] is False
    assert UNKNOWN.startswith("Unknown skill ID")


def test_the_eight_recipes_exist_with_one_program_each() -> None:
    recipes = all_recipes()
    assert sorted(r.name for r in recipes) == sorted(NAMES)
    for recipe in recipes:
        assert recipe.id == PREFIX + recipe.name
        assert "def main() -> None:" in recipe.program and "@clauz3.guarantee(" in recipe.program
        assert "Caveats:" in recipe.content and len(recipe.preview) <= 200


def test_each_recipe_proves_against_the_bundled_stdlib(tmp_path: Path) -> None:
    files = []
    for recipe in all_recipes():
        path = tmp_path / f"{recipe.name.replace('-', '_')}.py"
        path.write_text(recipe.program)
        files.append(str(path))
    args = []
    for domain in ("filesystem", "db"):
        args += ["--trusted-root", str(bundled_domain(domain) / "trusted"), "--import-root", str(STDLIB_DIR / domain)]
    env = dict(os.environ, CLAUZ3_HOME=str(tmp_path / "data"), CLAUZ3_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", *args, *files], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    for path in files:
        lines = [line for line in out.stdout.splitlines() if line.startswith(path + ": ")]
        assert lines and all(": main: proved " in line or line.startswith(path + ":   ") for line in lines), lines
        assert sum("proved guarantee" in line for line in lines) >= 1, lines


def copy_domain(domain: str, dest: Path) -> Path:
    target = dest / ".clauz3" / "tools" / domain
    shutil.copytree(bundled_domain(domain), target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


def test_recipes_listed_only_for_selected_identical_libraries(tmp_path: Path) -> None:
    project = tmp_path / "project"
    fs = copy_domain("filesystem", project)
    db = copy_domain("db", project)
    roots = [str(fs / "trusted"), ".clauz3/tools/db/trusted"]
    assert [r.name for r in recipes_for_roots(project, roots)] == sorted(NAMES)
    assert {r.name for r in recipes_for_roots(project, roots[:1])} == set(NAMES) - {"sqlite-table"}
    assert recipes_for_roots(project, []) == []

    # One byte more in one *.py of the filesystem copy hides every filesystem recipe, not the db one.
    effects = fs / "trusted" / "effects.py"
    original = effects.read_bytes()
    effects.write_bytes(original + b" ")
    assert [r.name for r in recipes_for_roots(project, roots)] == ["sqlite-table"]
    effects.write_bytes(original)
    assert len(recipes_for_roots(project, roots)) == len(NAMES)
    # An extra *.py counts as a difference; a non-Python file (README, manifest) does not.
    (fs / "trusted" / "extra.py").write_text("")
    assert [r.name for r in recipes_for_roots(project, roots)] == ["sqlite-table"]
    (fs / "trusted" / "extra.py").unlink()
    (fs / "notes.txt").write_text("not code")
    assert len(recipes_for_roots(project, roots)) == len(NAMES)
    # A symlinked file inside the copy is never treated as identical.
    (db / "trusted" / "schemas.py").unlink()
    (db / "trusted" / "schemas.py").symlink_to(bundled_domain("db") / "trusted" / "schemas.py")
    assert "sqlite-table" not in {r.name for r in recipes_for_roots(project, roots)}


def test_domain_of_root_and_uses() -> None:
    assert domain_of_root(Path("/p/.clauz3/tools/filesystem/trusted")) == ("filesystem",
                                                                          Path("/p/.clauz3/tools/filesystem"))
    assert domain_of_root(Path("/p/tools/acme/lims/trusted")) == ("acme/lims", Path("/p/tools/acme/lims"))
    assert domain_of_root(Path("/p/tools/x")) is None
    assert set(USES) == set(NAMES)
    assert available_recipes({"filesystem": Path("/nonexistent")}) == []


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def test_install_skills_keeps_a_hand_written_skill(cli_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clauz3.cli import main

    skill = cli_env / ".clauz3" / "skills" / "filesystem" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("# My own notes about files\n")
    assert main(["install", "stdlib:filesystem", "--yes", "--skills"]) == 0
    captured = capsys.readouterr()
    assert skill.read_text() == "# My own notes about files\n"
    assert "lacks the generated marker line" in captured.err and captured.err.startswith("warning: ")
    assert "generated skill:" not in captured.out

    skill.unlink()  # without a hand-written file the generated one is written, and later regenerated
    assert main(["install", "stdlib:filesystem", "--yes", "--force", "--skills"]) == 0
    generated = skill.read_text()
    assert MARKER in generated.splitlines() and "generated skill: " in capsys.readouterr().out
    skill.write_text(generated + "\nmy edit\n")
    assert main(["install", "stdlib:filesystem", "--yes", "--force", "--skills"]) == 0
    assert "my edit" not in skill.read_text()
