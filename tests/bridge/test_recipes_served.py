"""05 SKL-4: the bridge serves the recipes whose libraries are selected, right after the authoring skill."""

from __future__ import annotations

import shutil
from pathlib import Path

import clauz3
from clauz3.bridge.skills import AUTHORING_ID, SkillSnapshot

STDLIB = Path(clauz3.__file__).parent / "stdlib"


def test_recipes_follow_the_authoring_skill_for_selected_libraries(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    shutil.copytree(STDLIB / "filesystem" / "tools" / "filesystem", project / ".clauz3" / "tools" / "filesystem",
                    ignore=shutil.ignore_patterns("__pycache__"))
    snap = SkillSnapshot.take(project, (), None, [".clauz3/tools/filesystem/trusted"])
    _, doc = snap.list_result()
    ids = [s["id"] for s in doc["skills"]]
    assert ids[0] == AUTHORING_ID
    assert "builtin:recipe:write-file" in ids and "builtin:recipe:sqlite-table" not in ids
    recipe = snap.read("builtin:recipe:write-file")
    assert recipe is not None and "@clauz3.guarantee(" in recipe.text


def test_no_recipes_without_libraries(tmp_path: Path) -> None:
    snap = SkillSnapshot.take(tmp_path, (), None, [])
    _, doc = snap.list_result()
    assert [s["id"] for s in doc["skills"]] == [AUTHORING_ID]
