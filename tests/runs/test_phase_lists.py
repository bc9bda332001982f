"""One phase list: :class:`clauz3.runs.records.Phase`. No module in src/ spells the list again.

A "phase list" is one literal collection (tuple, list, set, dict keys; a JS object or array) naming
three or more phases. The page gets the phases from the server, so JavaScript holds none at all.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from clauz3.runs.records import ACTIVE_PHASES, FINAL_PHASES, PRE_EXECUTION, Phase

SRC = Path(__file__).resolve().parents[2] / "src" / "clauz3"
NAMES = frozenset(p.value for p in Phase)


def python_lists(text: str) -> list[int]:
    """Line numbers of literal collections naming ≥ 3 distinct phases."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        else:
            continue
        named = {i.value for i in items if isinstance(i, ast.Constant) and i.value in NAMES}
        if len(named) >= 3:
            found.append(node.lineno)
    return found


JS_LITERAL = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")
JS_NAME = re.compile(r"""["'`]?\b(""" + "|".join(sorted(NAMES)) + r""")\b["'`]?\s*[:,\]}]""")


def js_lists(text: str) -> list[str]:
    text = re.sub(r"//[^\n]*", "", text)
    return [m.group(0)[:60] for m in JS_LITERAL.finditer(text) if len(set(JS_NAME.findall(m.group(0)))) >= 3]


def test_the_scanners_find_a_copy() -> None:
    """The checks below ran on something and would catch the copies this issue removed."""
    assert python_lists('FINAL = frozenset({"completed", "refused", "failed", "cancelled", "uncertain"})') == [1]
    assert python_lists('x = ("failed", "uncertain")') == []
    assert js_lists('export const FINAL = new Set(["completed", "refused", "failed", "cancelled", "uncertain"]);')
    assert js_lists('const A = {\n  checking: "Checking program", proving: "Proving", executing: "Running",\n};')
    assert not js_lists('({ approved: "Approved", denied: "Rejected", cancelled: "Cancelled" })')


def test_no_python_module_spells_the_phase_list() -> None:
    modules = sorted(SRC.rglob("*.py"))
    assert len(modules) > 100
    copies = {str(p.relative_to(SRC)): lines for p in modules if (lines := python_lists(p.read_text("utf-8")))}
    assert copies == {}


def test_no_javascript_spells_the_phase_list() -> None:
    scripts = sorted(SRC.rglob("*.js"))
    assert len(scripts) > 10
    copies = {str(p.relative_to(SRC)): found for p in scripts if (found := js_lists(p.read_text("utf-8")))}
    assert copies == {}


def test_derived_lists_keep_pipeline_order_and_external_names() -> None:
    assert [p.value for p in Phase] == ["checking", "proving", "submitting_approval", "awaiting_approval",
                                        "executing", "completed", "refused", "failed", "cancelled", "uncertain"]
    assert ACTIVE_PHASES == tuple(p for p in Phase if not p.final)
    assert PRE_EXECUTION == ACTIVE_PHASES[:-1] and ACTIVE_PHASES[-1] is Phase.EXECUTING
    assert FINAL_PHASES.isdisjoint(ACTIVE_PHASES) and len(FINAL_PHASES) + len(ACTIVE_PHASES) == len(Phase)
