"""Issue 23: no module of src/ over 600 lines (one concept per small module). The check runs on the real tree
and is shown to catch a planted long module, so it cannot pass by looking at nothing."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "clauz3"
MAX_LINES = 600


def long_modules(root: Path) -> list[tuple[str, int]]:
    out = []
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append((str(path.relative_to(root)), n))
    return out


def test_no_module_is_over_600_lines() -> None:
    modules = list(SRC.rglob("*.py"))
    assert len(modules) > 100  # the tree is really there
    assert long_modules(SRC) == []


def test_the_check_catches_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert long_modules(tmp_path) == [("pkg/long.py", MAX_LINES + 1)]
