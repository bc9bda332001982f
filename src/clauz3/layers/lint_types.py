"""Annotation rules checked statically: effect results (01 EFF-4) and helper parameters (01 CON-2)."""

from __future__ import annotations

import ast

from clauz3.language.trusted_source import ImportMap
from clauz3.layers._astutil import annotation_node
from clauz3.layers.scan import ModuleScan, Param

SCALARS = frozenset({"bool", "int", "float", "str"})
_PATH_TYPES = frozenset({"clauz3.FilePath", "clauz3.DirectoryPath"})


def subclasses_of(modules: list[ModuleScan], base: str) -> set[str]:
    """Dotted names of classes deriving (through scanned classes) from the dotted ``base``."""
    known = {base}
    changed = True
    while changed:
        changed = False
        for m in modules:
            for name, cls in m.classes.items():
                dotted = f"{m.module}.{name}"
                if dotted in known:
                    continue
                if any(m.imports.resolve(b) in known for b in cls.bases):
                    known.add(dotted)
                    changed = True
    known.discard(base)
    return known


def _builtin_name(node: ast.expr, imports: ImportMap) -> str | None:
    """``int``, ``list``, … when the name is the builtin (not shadowed by an import or definition)."""
    if isinstance(node, ast.Name) and node.id not in imports.names:
        return node.id
    return None


def _scalar(node: ast.expr, imports: ImportMap) -> bool:
    return _builtin_name(node, imports) in SCALARS


def _is_row(node: ast.expr, imports: ImportMap, rows: set[str]) -> bool:
    return imports.resolve(node) in rows


def _sub(node: ast.expr, imports: ImportMap) -> tuple[str | None, list[ast.expr]]:
    if not isinstance(node, ast.Subscript):
        return None, []
    head = _builtin_name(node.value, imports)
    args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    return head, args


def return_annotation_ok(raw: ast.expr | None, params: list[Param], imports: ImportMap, rows: set[str]) -> bool:
    node = annotation_node(raw)
    if node is None:
        return False
    if isinstance(node, ast.Constant) and node.value is None:
        return True
    if _scalar(node, imports):
        return True
    head, args = _sub(node, imports)
    if head in ("list", "set") and len(args) == 1:
        (elem,) = args
        if _scalar(elem, imports):
            return True
        if head == "list":
            if _is_row(elem, imports, rows):
                return True
            return isinstance(elem, ast.Name) and any(_type_param_of(p, elem.id, imports) for p in params)
        return False
    if head == "tuple" and len(args) == 2:
        return _scalar(args[0], imports) and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis
    if head == "dict" and len(args) == 2:
        return _scalar(args[0], imports) and _scalar(args[1], imports)
    return False


def _type_param_of(param: Param, name: str, imports: ImportMap) -> bool:
    node = annotation_node(param.annotation_node)
    head, args = _sub(node, imports) if node is not None else (None, [])
    return head == "type" and len(args) == 1 and isinstance(args[0], ast.Name) and args[0].id == name


def _passable_scalar(node: ast.expr, imports: ImportMap) -> bool:
    if isinstance(node, ast.Constant) and node.value is None:
        return True
    return _scalar(node, imports) or imports.resolve(node) in _PATH_TYPES


def passable(raw: ast.expr | None, imports: ImportMap, rows: set[str]) -> bool:
    """CON-2; ``X | None`` of passable types is accepted as the optional form of a passable type."""
    node = annotation_node(raw)
    if node is None:
        return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return passable(node.left, imports, rows) and passable(node.right, imports, rows)
    if _passable_scalar(node, imports) or _builtin_name(node, imports) == "type":
        return True
    head, args = _sub(node, imports)
    if head in ("list", "set") and len(args) == 1:
        return _passable_scalar(args[0], imports)
    if head == "tuple" and args:
        if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
            return _passable_scalar(args[0], imports)
        return all(_passable_scalar(a, imports) for a in args)
    if head == "dict" and len(args) == 2:
        if _builtin_name(args[0], imports) != "str":
            return False
        value = args[1]
        return _builtin_name(value, imports) == "object" or passable(value, imports, rows)
    if head == "type" and len(args) == 1:
        return _is_row(args[0], imports, rows)
    return False
