"""Spec coverage (06 QB-8): every acceptance line of every spec chapter and the tests that cover it.

Reads the "Acceptance checks" section of each chapter ``0[1-6]-*.md`` in the spec folder and the
mapping ``tests/spec_coverage.toml``; prints each acceptance line as ``covered`` (with its tests) or
``UNCOVERED``; checks that every referenced test exists. Exit 1 when a chapter marked
``enforced = true`` (its issue resolved) has an uncovered line, a missing test or a bad ``starts``;
2 for unreadable input. Static only: nothing is imported or run, so it stays well under a second.

Usage: python scripts/spec_coverage.py [--spec DIR] [--mapping FILE] [--chapter NN]… [--quiet]
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SPEC = REPO.parent / "shared" / "spec"
DEFAULT_MAPPING = REPO / "tests" / "spec_coverage.toml"
CHAPTER_FILE = re.compile(r"^(0[1-6])-.+\.md$")
SECTION = re.compile(r"^##\s+(?:\d+\.\s*)?Acceptance checks\s*$")
TEST_ID = re.compile(r"^(?P<file>[^:]+\.py)::(?P<names>[A-Za-z_][\w]*(?:::[A-Za-z_]\w*)?)(?P<param>\[.*\])?$")


@dataclass
class Check:
    """One acceptance bullet; ``text`` has its continuation lines joined with single spaces."""

    chapter: str
    group: str
    text: str
    line: int
    tests: list[str] = field(default_factory=list)


@dataclass
class Report:
    checks: dict[str, list[Check]]
    enforced: dict[str, bool]
    problems: dict[str, list[str]]  # chapter → problems (bad starts, missing tests, unknown chapters)
    xfail: set[str] = field(default_factory=set)


def squash(text: str) -> str:
    return " ".join(text.split())


def parse_acceptance(text: str, chapter: str = "") -> list[Check]:
    """The bullets of the chapter's "Acceptance checks" section (up to the next ``## `` heading).

    A bullet starts with ``- `` at column 0 and continues on indented lines; ``### X`` headings and
    other unindented non-bullet lines inside the section name the group of the bullets after them.
    """
    checks: list[Check] = []
    inside = False
    group = ""
    current: list[str] | None = None
    start = 0

    def flush() -> None:
        nonlocal current
        if current is not None:
            checks.append(Check(chapter, group, squash(" ".join(current)), start))
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not inside:
            inside = bool(SECTION.match(line))
            continue
        if line.startswith("## "):
            break
        if line.startswith("- "):
            flush()
            current, start = [line[2:]], number
        elif not line.strip():
            flush()
        elif line[0] in " \t":
            if current is not None:
                current.append(line.strip())
        else:
            flush()
            group = line.lstrip("#").strip()
    flush()
    return checks


def read_chapters(spec: Path) -> dict[str, list[Check]]:
    chapters: dict[str, list[Check]] = {}
    for path in sorted(spec.iterdir()):
        m = CHAPTER_FILE.match(path.name)
        if m:
            chapters[m.group(1)] = parse_acceptance(path.read_text(encoding="utf-8"), m.group(1))
    return chapters


class TestIndex:
    """Test functions defined in test files, by static parse (module level and ``Test*`` classes)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, set[str] | None] = {}
        self.xfail: set[str] = set()  # "file::name" of tests marked xfail (listed, flagged in the output)

    def _names(self, rel: str) -> set[str] | None:
        if rel not in self._cache:
            path = self.root / rel
            try:
                tree = ast.parse(path.read_bytes(), filename=str(path))
            except (OSError, SyntaxError, ValueError):
                self._cache[rel] = None
                return None
            names: set[str] = set()
            funcs = (ast.FunctionDef, ast.AsyncFunctionDef)
            for node in tree.body:
                if isinstance(node, funcs) and node.name.startswith("test"):
                    names.add(node.name)
                    if any("xfail" in ast.unparse(d) for d in node.decorator_list):
                        self.xfail.add(f"{rel}::{node.name}")
                elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                    for sub in node.body:
                        if isinstance(sub, funcs) and sub.name.startswith("test"):
                            names.add(sub.name)
                            names.add(f"{node.name}::{sub.name}")
            self._cache[rel] = names
        return self._cache[rel]

    def problem(self, test_id: str) -> str | None:
        """None when the test exists, else why not."""
        m = TEST_ID.match(test_id)
        if not m:
            return f"malformed test id {test_id!r} (want path/to/test_x.py::test_name[param])"
        names = self._names(m.group("file"))
        if names is None:
            return f"{test_id}: no such (parsable) file {m.group('file')}"
        if m.group("names") not in names:
            return f"{test_id}: {m.group('file')} defines no test {m.group('names')}"
        return None


def _entries(doc: dict[str, Any], chapter: str) -> tuple[bool, list[dict[str, Any]], list[str]]:
    section = doc.get("chapters", {}).get(chapter)
    if section is None:
        return False, [], []
    problems: list[str] = []
    enforced = section.get("enforced", False)
    if not isinstance(enforced, bool):
        problems.append("`enforced` must be true or false")
        enforced = True
    entries = section.get("checks", [])
    if not isinstance(entries, list):
        return enforced, [], [*problems, "`checks` must be an array of tables"]
    good = []
    for i, entry in enumerate(entries):
        starts, tests = (entry.get("starts"), entry.get("tests", [])) if isinstance(entry, dict) else (None, None)
        if not isinstance(starts, str) or not starts.strip():
            problems.append(f"checks[{i}]: `starts` must be a non-empty string")
        elif not isinstance(tests, list) or not all(isinstance(t, str) for t in tests):
            problems.append(f"checks[{i}] ({starts!r}): `tests` must be a list of strings")
        else:
            good.append(entry)
    return enforced, good, problems


def build_report(spec: Path, mapping: Path, root: Path = REPO) -> Report:
    chapters = read_chapters(spec)
    doc = tomllib.loads(mapping.read_text(encoding="utf-8"))
    index = TestIndex(root)
    enforced: dict[str, bool] = {}
    problems: dict[str, list[str]] = {}
    for chapter in sorted(set(doc.get("chapters", {})) - set(chapters)):
        problems.setdefault(chapter, []).append(f"chapter {chapter} is mapped but has no spec file")
        enforced[chapter] = bool(doc["chapters"][chapter].get("enforced", False))
    for chapter, checks in chapters.items():
        on, entries, bad = _entries(doc, chapter)
        enforced[chapter] = on
        found = problems.setdefault(chapter, [])
        found.extend(bad)
        if not checks and entries:
            found.append("the chapter has no acceptance bullets but the mapping lists some")
        for entry in entries:
            prefix = squash(entry["starts"])
            hits = [c for c in checks if c.text.startswith(prefix)]
            if len(hits) != 1:
                where = "no acceptance line" if not hits else \
                    f"{len(hits)} acceptance lines (spec lines {', '.join(str(c.line) for c in hits)})"
                found.append(f"starts {prefix!r} matches {where}")
                continue
            for test in entry["tests"]:
                why = index.problem(test)
                if why:
                    found.append(f"missing test: {why}")
                elif test not in hits[0].tests:
                    hits[0].tests.append(test)
    return Report(chapters, enforced, problems, index.xfail)


def render(report: Report, only: set[str] | None = None, quiet: bool = False) -> tuple[list[str], int]:
    lines: list[str] = []
    failing = 0
    for chapter in sorted(set(report.checks) | set(report.problems)):
        if only and chapter not in only:
            continue
        checks = report.checks.get(chapter, [])
        on = report.enforced.get(chapter, False)
        covered = sum(1 for c in checks if c.tests)
        problems = report.problems.get(chapter, [])
        lines.append(f"== chapter {chapter} ({'enforced' if on else 'not enforced'}): "
                     f"{covered}/{len(checks)} acceptance lines covered")
        if not checks:
            lines.append("  (no Acceptance checks section)")
        group = None
        for c in checks:
            if quiet and c.tests:
                continue
            if c.group != group and c.group:
                lines.append(f"  [{c.group}]")
            group = c.group
            short = c.text if len(c.text) <= 110 else c.text[:107] + "..."
            lines.append(f"  {'covered  ' if c.tests else 'UNCOVERED'} {chapter}:{c.line} {short}")
            for t in c.tests:
                lines.append(f"      {t}{'  (xfail)' if t.split('[')[0] in report.xfail else ''}")
        for p in problems:
            lines.append(f"  PROBLEM {p}")
        if on and (problems or covered < len(checks)):
            failing += 1
    total = sum(len(v) for k, v in report.checks.items() if not only or k in only)
    done = sum(1 for k, v in report.checks.items() if not only or k in only for c in v if c.tests)
    lines.append(f"{done}/{total} acceptance lines covered; "
                 f"{failing} enforced chapter(s) failing")
    return lines, (1 if failing else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=DEFAULT_SPEC, help=f"spec folder (default: {DEFAULT_SPEC})")
    parser.add_argument("--mapping", type=Path, default=DEFAULT_MAPPING, help="the TOML mapping file")
    parser.add_argument("--root", type=Path, default=REPO, help="folder test paths are relative to (default: repo)")
    parser.add_argument("--chapter", action="append", default=None, metavar="NN", help="only this chapter")
    parser.add_argument("--quiet", action="store_true", help="list only uncovered lines and problems")
    args = parser.parse_args(argv)
    if not args.spec.is_dir():
        print(f"error: {args.spec}: no such spec folder (pass --spec DIR)", file=sys.stderr)
        return 2
    try:
        report = build_report(args.spec, args.mapping, args.root)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except tomllib.TOMLDecodeError as exc:
        print(f"error: {args.mapping}: {exc}", file=sys.stderr)
        return 2
    lines, code = render(report, set(args.chapter) if args.chapter else None, args.quiet)
    print("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main())
