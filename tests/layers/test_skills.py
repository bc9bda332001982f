"""``--skills-dir`` snapshots (05 SKL-5), generated skills (SKL-6) and session instructions (SKL-2)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from clauz3.layers.skills import (
    SkillsError,
    preview_of,
    selected_line,
    session_instructions,
    skills_fingerprint,
    snapshot_skills,
)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_snapshot_records(tmp_path: Path) -> None:
    a = write(tmp_path / "skills" / "alpha" / "SKILL.md", "---\nname: alpha\nallowed-tools: Bash\n---\nBody")
    write(tmp_path / "skills" / "beta" / "deep" / "SKILL.md", "# Beta\n" + "x" * 500)
    write(tmp_path / "skills" / "beta" / "notes.md", "ignored")
    docs = snapshot_skills([tmp_path / "skills", tmp_path / "skills" / "alpha"])
    assert [d.name for d in sorted(docs, key=lambda d: d.name)] == ["alpha", "deep"]
    assert docs == sorted(docs, key=lambda d: d.id)  # sorted by id, each file once
    alpha = next(d for d in docs if d.name == "alpha")
    assert alpha.id == "skill:" + hashlib.sha256(str(a).encode()).hexdigest()[:16]
    assert alpha.preview == "name: alpha\nallowed-tools: Bash"
    deep = next(d for d in docs if d.name == "deep")
    assert len(deep.preview) == 200
    assert selected_line(docs) == "Skill documents: 2 selected"
    fp = skills_fingerprint(docs)
    a.write_text("edited")  # later edits are invisible to the snapshot
    assert alpha.content.endswith("Body") and skills_fingerprint(docs) == fp
    assert "path" not in alpha.listing()


@pytest.mark.parametrize("case", ["symlink", "big", "many", "binary", "dirlink"])
def test_refusals_name_the_path(tmp_path: Path, case: str) -> None:
    root = tmp_path / "skills"
    root.mkdir()
    if case == "symlink":
        target = write(tmp_path / "outside.md", "secret")
        bad = root / "s" / "SKILL.md"
        bad.parent.mkdir()
        bad.symlink_to(target)
    elif case == "big":
        bad = write(root / "s" / "SKILL.md", "x" * (300 * 1024))
    elif case == "many":
        for i in range(129):
            write(root / f"s{i:03}" / "SKILL.md", "doc")
        bad = root
    elif case == "binary":
        bad = write(root / "s" / "SKILL.md", b"\xff\xfe bad")
    else:
        (tmp_path / "real").mkdir()
        bad = root / "linked"
        bad.symlink_to(tmp_path / "real")
    with pytest.raises(SkillsError) as info:
        snapshot_skills([root])
    assert str(bad) in str(info.value) or (case == "many" and str(root) in str(info.value))


def test_preview_without_frontmatter() -> None:
    assert preview_of("  hello\nworld  ") == "hello\nworld"


def test_session_instructions() -> None:
    text = session_instructions(browser=True)
    assert "builtin:clauz3-authoring" in text and "awaiting_approval" in text
    assert "Restricted mode" in text and "slash commands" in text
    assert "bypass proofs" in session_instructions(unrestricted=True)
    assert "builtin:tutorial:email" in session_instructions(tutorial="email")
