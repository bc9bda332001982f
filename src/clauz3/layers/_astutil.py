"""Small AST helpers shared by the static scan and lint: literals, docstrings (import resolution and the
module-level walk are the one trusted-source reader's, ``language/trusted_source``)."""

from __future__ import annotations

import ast

from clauz3.base.astparse import parse_ast


def is_literal(node: ast.expr | None) -> bool:
    """A literal default or argument: constants, negated numbers, containers of literals."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, bytes) and node.value is not Ellipsis
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(is_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and is_literal(k) for k in node.keys) and all(is_literal(v) for v in node.values)
    return False


def literal_str(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def docstring(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module) -> str | None:
    return ast.get_docstring(node, clean=True)


def first_paragraph(text: str | None, limit: int) -> str | None:
    """The first paragraph, whitespace-collapsed and cut to ``limit`` characters (01 CON-5, TOOLS-1)."""
    if not text:
        return None
    para = " ".join(text.strip().split("\n\n", 1)[0].split())
    if not para:
        return None
    if len(para) > limit:
        para = para[: limit - 1].rstrip() + "…"
    return para


def annotation_node(node: ast.expr | None) -> ast.expr | None:
    """The annotation expression, parsing string annotations (``"list[Row]"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return parse_ast(node.value, mode="eval").body
        except SyntaxError:
            return None
    return node


def call_keyword(call: ast.Call, name: str) -> ast.keyword | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw
    return None


def loc(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
