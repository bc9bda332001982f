"""SKL-1: the repository's skills have frontmatter and quote only real ``clauz3`` subcommands."""

from __future__ import annotations

import re
from pathlib import Path

from clauz3.cli import COMMANDS

SKILLS = Path(__file__).resolve().parents[2] / "skills"


def test_frontmatter_and_commands() -> None:
    docs = [SKILLS / "clauz3-authoring" / "SKILL.md", SKILLS / "clauz3-exploring" / "SKILL.md"]
    for doc in docs:
        text = doc.read_text("utf-8")
        head = text.split("---")[1]
        assert re.search(r"^name: \S+", head, re.M) and re.search(r"^description: \S+", head, re.M)
    quoted = set()
    for path in SKILLS.rglob("*.md"):
        quoted |= set(re.findall(r"`clauz3 ([a-z][a-z-]*)", path.read_text("utf-8")))
    assert quoted and quoted <= set(COMMANDS), quoted - set(COMMANDS)
