"""The compiler is composed, not inherited (issue 23): no class declares methods it expects a subclass to
define (``if TYPE_CHECKING:`` stubs inside a class body), and the parts compiling a function body are
separate objects holding one another by explicit references over one shared ``body.Body``."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "clauz3"
PARTS = {"statements": "BodyCompiler", "assignments": "AssignCompiler", "expressions": "ExprCompiler",
         "calls": "CallCompiler", "iteration": "Iteration"}


@functools.cache
def _classes() -> list[tuple[Path, ast.ClassDef]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                found.append((path, node))
    assert len(found) > 100  # the scan ran on the real tree
    return found


def test_no_class_body_declares_methods_for_mypy_only() -> None:
    stubs = [f"{path.relative_to(SRC)}: {cls.name}" for path, cls in _classes() for stmt in cls.body
             if isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test)]
    assert not stubs, f"TYPE_CHECKING stubs in class bodies (compose the parts instead): {stubs}"


def test_the_parts_of_a_body_compiler_inherit_nothing_and_share_one_body() -> None:
    from clauz3.language.body import Body
    from clauz3.language.context import Source
    from clauz3.language.statements import BodyCompiler

    by_module = {(path.stem, cls.name): cls for path, cls in _classes() if path.parent.name == "language"}
    for module, name in PARTS.items():
        cls = by_module[(module, name)]
        assert not cls.bases, f"{module}.{name} inherits {[ast.unparse(b) for b in cls.bases]}"
    body = Body(ctx=None, scope=None, src=Source("x.py", ""), fn_key="f")  # type: ignore[arg-type]  # only wired, never run
    comp = BodyCompiler(body)
    assert comp.body is comp.exprs.body is comp.assigns.body is comp.exprs.calls.body is comp.iteration.body is body
    assert comp.assigns.exprs is comp.exprs.calls.exprs is comp.iteration.exprs is comp.exprs
