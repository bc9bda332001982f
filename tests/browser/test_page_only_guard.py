"""Issue 13: the PageOnlyBridge (nothing proved, nothing run, every approved run "completed") serves only
page mechanics. A browser or e2e test that names it may not drive or assert a proof, a card or a run, so
no flow a person sees can pass on the stand-in's say-so."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
STAND_IN = ("PageOnlyBridge", "HTML_BRIDGE")
# What only a proof or a run produces, and the text only the stand-in writes.
FLOW_MARKS = ("section.approval", "section.run", "\"Approve\"", "Completed", "Did not execute",
              "Sandbox: unavailable", "/decision", "starters", "Run this program", "executed_partially")


def stand_in_tests() -> list[tuple[str, str]]:
    found = []
    for path in sorted([*TESTS.joinpath("browser").glob("test_*.py"), *TESTS.joinpath("e2e").glob("test_*.py")]):
        if path.name == Path(__file__).name:
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                body = ast.get_source_segment(source, node) or ""
                if any(name in body for name in STAND_IN):
                    found.append((f"{path.relative_to(TESTS)}::{node.name}", body))
    return found


def test_page_only_bridge_tests_check_no_flow() -> None:
    found = stand_in_tests()
    assert len(found) >= 5, found  # the walker saw the page-mechanics tests that do name it
    offending = {name: [m for m in FLOW_MARKS if m in body] for name, body in found}
    assert {k: v for k, v in offending.items() if v} == {}
