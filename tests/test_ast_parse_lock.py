"""Every parse in src/ goes through ``clauz3.base.astparse.parse_ast`` (one process-wide lock).

CPython 3.11's AST converter keeps its recursion counter per interpreter, so two threads parsing at once
can fail with ``SystemError: AST constructor recursion depth mismatch`` (the authority and the service
parse in worker threads). A bare ``ast.parse`` anywhere brings that back, so this test finds them.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "clauz3"
LOCKED = SRC / "base" / "astparse.py"


def _bare_parses(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "parse" and isinstance(func.value, ast.Name) \
                and func.value.id == "ast":
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: ast.parse")
        if isinstance(func, ast.Name) and func.id == "compile" and any(
                isinstance(arg, ast.Attribute) and arg.attr == "PyCF_ONLY_AST" for arg in ast.walk(node)):
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: compile(..., PyCF_ONLY_AST)")
    return found


def test_every_parse_in_src_takes_the_lock() -> None:
    files = [p for p in SRC.rglob("*.py") if p != LOCKED and "tutorials" not in p.parts]
    assert len(files) > 100  # the walk found the package
    bare = [hit for path in files for hit in _bare_parses(path)]
    assert not bare, "parse through clauz3.base.astparse.parse_ast instead:\n" + "\n".join(bare)
