"""Small AST helpers shared by the static scan and lint: import resolution, literals, docstrings."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from clauz3._astparse import parse_ast

# Spellings that name the same public object (01 §2.2), folded to one canonical dotted name.
_CANONICAL: dict[str, str] = {
    "clauz3.spec.contract": "clauz3.contract",
    "clauz3.spec.effect": "clauz3.effect",
    "clauz3.paths.FilePath": "clauz3.FilePath",
    "clauz3.paths.DirectoryPath": "clauz3.DirectoryPath",
    "clauz3.spec.ContractSpec": "clauz3.ContractSpec",
    "clauz3._path_safety.has_no_parent_segments": "clauz3.paths.has_no_parent_segments",
    "clauz3._path_safety.is_plain_path": "clauz3.paths.is_plain_path",
    "clauz3._path_safety.url_has_no_parent_segments": "clauz3.paths.url_has_no_parent_segments",
    "clauz3._path_safety.is_single_path_component": "clauz3.paths.is_single_path_component",
}


def module_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, descending into module-level ``if`` and ``try`` blocks (05 MOCK-2)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from module_level_statements(stmt.body)
            yield from module_level_statements(stmt.orelse)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            yield from module_level_statements(stmt.body)
            for handler in stmt.handlers:
                yield from module_level_statements(handler.body)
            yield from module_level_statements(stmt.orelse)
            yield from module_level_statements(stmt.finalbody)


class ImportMap:
    """Maps the local names of one module to the dotted objects they stand for."""

    def __init__(self, tree: ast.Module, module: str, is_package: bool) -> None:
        self.module = module
        self.names: dict[str, str] = {}
        package = module if is_package else module.rpartition(".")[0]
        for stmt in module_level_statements(tree.body):
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.names[top] = top
            elif isinstance(stmt, ast.ImportFrom):
                base = self._from_base(stmt, package)
                if base is None:
                    continue
                for alias in stmt.names:
                    if alias.name == "*":
                        continue
                    self.names[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.names[stmt.name] = f"{module}.{stmt.name}"

    @staticmethod
    def _from_base(stmt: ast.ImportFrom, package: str) -> str | None:
        if not stmt.level:
            return stmt.module or ""
        parts = package.split(".") if package else []
        up = stmt.level - 1
        if up > len(parts):
            return None
        parts = parts[: len(parts) - up]
        if stmt.module:
            parts.append(stmt.module)
        return ".".join(parts)

    def resolve(self, node: ast.expr) -> str | None:
        """Dotted name of a Name/Attribute chain through this module's imports, canonicalised."""
        if isinstance(node, ast.Name):
            target = self.names.get(node.id)
            return None if target is None else _CANONICAL.get(target, target)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None:
                return None
            dotted = f"{base}.{node.attr}"
            return _CANONICAL.get(dotted, dotted)
        return None


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
