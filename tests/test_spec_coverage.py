"""06 QB-8: ``scripts/spec_coverage.py`` maps every acceptance line to tests; enforced chapters are complete."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "spec_coverage.py"
SPEC = ROOT.parent / "shared" / "spec"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("spec_coverage", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["spec_coverage"] = module  # dataclasses resolve their module through sys.modules
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not SPEC.is_dir(), reason=f"spec folder {SPEC} not present")
def test_enforced_chapters_are_fully_covered() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--spec", str(SPEC), "--quiet"], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "== chapter 01 (enforced): " in proc.stdout


CHAPTER = """\
# 01 — Example

## Acceptance checks

- First check: one line.
- Second check spans
  two lines, `code` and → arrows.

Group one
- Third check under a plain group line.
### Group two
- Fourth check under a heading.
- Fourth check again, a near twin.

## Next section
- Not an acceptance line.
"""

TESTS = """\
import pytest


def test_one() -> None:
    pass


@pytest.mark.parametrize("x", [1, 2])
def test_two(x: int) -> None:
    pass


class TestGroup:
    def test_method(self) -> None:
        pass


@pytest.mark.xfail(reason="known bug")
def test_known_bug() -> None:
    pass


def helper_not_a_test() -> None:
    pass
"""


def test_parser_reads_bullets_continuations_and_groups() -> None:
    mod = load_script()
    checks = mod.parse_acceptance(CHAPTER, "01")
    assert [(c.group, c.text, c.line) for c in checks] == [
        ("", "First check: one line.", 5),
        ("", "Second check spans two lines, `code` and → arrows.", 6),
        ("Group one", "Third check under a plain group line.", 10),
        ("Group two", "Fourth check under a heading.", 12),
        ("Group two", "Fourth check again, a near twin.", 13),
    ]
    assert mod.parse_acceptance("# x\n\n## Other\n- a\n") == []
    numbered = mod.parse_acceptance("## 14. Acceptance checks\n### CLI\n- a\n  b\n")
    assert [(c.group, c.text) for c in numbered] == [("CLI", "a b")]


def _tree(tmp_path: Path, mapping: str) -> tuple[Path, Path]:
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "01-example.md").write_text(CHAPTER, encoding="utf-8")
    (spec / "02-empty.md").write_text("# 02\n\nNo acceptance section.\n", encoding="utf-8")
    (spec / "00-decisions.md").write_text("## Acceptance checks\n- never read\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(TESTS, encoding="utf-8")
    path = tmp_path / "map.toml"
    path.write_text(textwrap.dedent(mapping), encoding="utf-8")
    return spec, path


FULL = """\
    [chapters."01"]
    enforced = true
    [[chapters."01".checks]]
    starts = "First check"
    tests = ["tests/test_x.py::test_one"]
    [[chapters."01".checks]]
    starts = "Second   check spans two"
    tests = ["tests/test_x.py::test_two[1]"]
    [[chapters."01".checks]]
    starts = "Third"
    tests = ["tests/test_x.py::TestGroup::test_method"]
    [[chapters."01".checks]]
    starts = "Fourth check under"
    tests = ["tests/test_x.py::test_method"]
    [[chapters."01".checks]]
    starts = "Fourth check again"
    tests = ["tests/test_x.py::test_one", "tests/test_x.py::test_two", "tests/test_x.py::test_known_bug"]
"""


def test_complete_mapping_passes(tmp_path: Path) -> None:
    mod = load_script()
    spec, mapping = _tree(tmp_path, FULL)
    report = mod.build_report(spec, mapping, tmp_path)
    assert set(report.checks) == {"01", "02"}
    lines, code = mod.render(report)
    assert code == 0, "\n".join(lines)
    assert lines[0] == "== chapter 01 (enforced): 5/5 acceptance lines covered"
    assert "      tests/test_x.py::TestGroup::test_method" in lines
    assert "      tests/test_x.py::test_known_bug  (xfail)" in lines
    assert "  (no Acceptance checks section)" in lines


def test_enforced_chapter_fails_on_gaps_missing_tests_and_bad_prefixes(tmp_path: Path) -> None:
    mod = load_script()
    spec, mapping = _tree(tmp_path, """\
        [chapters."01"]
        enforced = true
        [[chapters."01".checks]]
        starts = "First check"
        tests = ["tests/test_x.py::test_gone", "tests/nope.py::test_one", "tests/test_x.py::helper_not_a_test"]
        [[chapters."01".checks]]
        starts = "Fourth check"
        tests = ["tests/test_x.py::test_one"]
        [[chapters."01".checks]]
        starts = "No such check"
        tests = ["tests/test_x.py::test_one"]
        [[chapters."01".checks]]
        starts = "Third"
        tests = ["test_x::test_one"]
    """)
    lines, code = mod.render(mod.build_report(spec, mapping, tmp_path))
    text = "\n".join(lines)
    assert code == 1
    assert lines[0] == "== chapter 01 (enforced): 0/5 acceptance lines covered"
    assert text.count("  UNCOVERED 01:") == 5
    assert "defines no test test_gone" in text and "no such (parsable) file tests/nope.py" in text
    assert "defines no test helper_not_a_test" in text
    assert "starts 'Fourth check' matches 2 acceptance lines (spec lines 12, 13)" in text
    assert "starts 'No such check' matches no acceptance line" in text
    assert "malformed test id 'test_x::test_one'" in text


def test_unenforced_chapter_reports_but_does_not_fail(tmp_path: Path) -> None:
    mod = load_script()
    spec, mapping = _tree(tmp_path, FULL.replace("enforced = true", "enforced = false").replace(
        "tests/test_x.py::test_one\"]", "tests/test_x.py::test_gone\"]", 1))
    lines, code = mod.render(mod.build_report(spec, mapping, tmp_path))
    assert code == 0
    assert lines[0] == "== chapter 01 (not enforced): 4/5 acceptance lines covered"
    assert any("PROBLEM missing test" in line for line in lines)


def test_command_line_exit_codes(tmp_path: Path) -> None:
    spec, mapping = _tree(tmp_path, FULL.replace('starts = "Third"', 'starts = "Thirty"'))
    run = [sys.executable, str(SCRIPT), "--spec", str(spec), "--mapping", str(mapping), "--root", str(tmp_path)]
    proc = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "  UNCOVERED 01:10 Third check under a plain group line." in proc.stdout.splitlines()
    proc = subprocess.run([*run[:3], str(tmp_path / "missing")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ")
    mapping.write_text("[chapters\n")
    proc = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith(f"error: {mapping}: ")
