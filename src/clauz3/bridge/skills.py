"""``list_skills`` / ``read_skill`` (03 MCP-8, 05 SKL-4): documents served by id from a start snapshot.

``builtin:clauz3-authoring`` (package data, always first), then the project's repository documents
``<project>/.clauz3/skills/*/SKILL.md`` and any ``--skills-dir`` folders, snapshotted once with the
05 SKL-5 walker. Ids are looked up in the snapshot only; no id is ever turned into a path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from clauz3.layers.skills import SkillsError, preview_of, snapshot_skills

AUTHORING_ID = "builtin:clauz3-authoring"
UNKNOWN = "Unknown skill ID; call list_skills to see the available IDs."
NO_SKILLS = "No documents."
MAX_TEXT_BYTES = 256 * 1024


@dataclass(frozen=True)
class Skill:
    id: str
    name: str
    preview: str
    text: str

    def listing(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "preview": self.preview}


def authoring_text() -> str:
    return (resources.files("clauz3.bridge") / "authoring.md").read_text(encoding="utf-8")


class SkillSnapshot:
    def __init__(self, skills: Sequence[Skill]) -> None:
        self._skills = list(skills)
        self._by_id = {s.id: s for s in self._skills}

    @classmethod
    def take(cls, project: Path | None, extra_dirs: Sequence[str] = (),
             warn: Callable[[str], None] | None = None, trusted_roots: Sequence[str] = ()) -> SkillSnapshot:
        text = authoring_text()
        skills = [Skill(AUTHORING_ID, "clauz3-authoring", preview_of(text), text)]
        if project is not None and trusted_roots:
            from clauz3.layers.recipes import recipes_for_roots

            try:
                recipes = recipes_for_roots(project, trusted_roots)
            except (OSError, ValueError) as exc:
                recipes = []
                if warn is not None:
                    warn(f"recipes ignored: {exc}")
            skills += [Skill(r.id, r.name, r.preview, r.content) for r in recipes]
        dirs: list[str] = []
        if project is not None:
            repo = project / ".clauz3" / "skills"
            if os.path.isdir(repo) and not os.path.islink(repo):
                dirs.append(str(repo))
        dirs.extend(extra_dirs)
        seen = {s.id for s in skills}
        for folder in dirs:  # one folder at a time: a refused folder does not hide the others
            try:
                docs = snapshot_skills([folder])
            except SkillsError as exc:
                if warn is not None:
                    warn(f"skills ignored: {exc}")
                continue
            for doc in docs:
                if doc.id not in seen:
                    seen.add(doc.id)
                    skills.append(Skill(doc.id, doc.name, doc.preview, doc.content))
        return cls(skills)

    def list_result(self) -> tuple[str, dict[str, Any]]:
        lines = [f"{s.id} — {s.name}: {' '.join(s.preview.split())}" for s in self._skills]
        return ("\n".join(lines) or NO_SKILLS), {"skills": [s.listing() for s in self._skills]}

    def read(self, skill_id: str) -> Skill | None:
        """The document, or None (never a path lookup; ``../x`` is simply not an id)."""
        return self._by_id.get(skill_id)
