"""What `run` needs beyond a proof: the target must be callable with no arguments (MOD-5).

`prove` covers every value of a parameter without a default (00 DEC-14); a run calls the target
with no arguments, so it refuses such a target with ``target-parameters`` before asking anyone.
"""

from __future__ import annotations

import ast

from clauz3.base.astparse import parse_ast
from clauz3.language import ir
from clauz3.language import types as T


def unrunnable_parameters(program: ir.CheckedProgram, source: bytes) -> list[ir.Diagnostic]:
    fn = program.functions[program.target]
    missing = [p for p in fn.params if p.default is None]
    if not missing:
        return []
    where = _positions(source, program.target)
    out = []
    for p in missing:
        line, col = where.get(p.name, (fn.line, 1))
        example = {"int": "0", "float": "0.0", "bool": "False", "str": '""'}.get(T.show(p.type), "…")
        out.append(ir.Diagnostic(
            "error", program.path, line, col, "target-parameters",
            f"parameter `{p.name}` of `{program.target}` has no default, and a run calls `{program.target}` "
            "with no arguments",
            f"give it a literal default, e.g. `{p.name}: {T.show(p.type)} = {example}` (proofs cover every value)"))
    return out


def _positions(source: bytes, target: str) -> dict[str, tuple[int, int]]:
    try:
        tree = parse_ast(source)
    except (SyntaxError, ValueError):
        return {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == target:
            a = node.args
            return {x.arg: (x.lineno, x.col_offset + 1) for x in a.posonlyargs + a.args + a.kwonlyargs}
    return {}
