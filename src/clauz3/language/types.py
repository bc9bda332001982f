"""Static types of the checked subset (01 TYP-1): display, widening, joins and annotations."""

from __future__ import annotations

import ast
import types as pytypes
import typing
from typing import Any

from clauz3.base.astparse import parse_ast
from clauz3.language import ir
from clauz3.language.ir import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    OBJECT,
    STR,
    TDict,
    TList,
    TObject,
    TOptional,
    TRow,
    TRowClass,
    TScalar,
    TSet,
    TTuple,
    Type,
)
from clauz3.language.ir_types import TError

ERR = TError()
SCALARS = {"bool": BOOL, "int": INT, "float": FLOAT, "str": STR, "None": NONE}
NUMERIC_RANK = {"bool": 0, "int": 1, "float": 2}


def show(t: Any) -> str:
    """Human spelling used in messages: ``int``, ``list[str]``, ``str | None``."""
    if isinstance(t, TScalar):
        return t.name
    if isinstance(t, TOptional):
        return f"{show(t.inner)} | None"
    if isinstance(t, TList):
        return f"list[{show(t.elem)}]"
    if isinstance(t, TSet):
        return f"set[{show(t.elem)}]"
    if isinstance(t, TTuple):
        if t.elems is not None:
            return "tuple[" + ", ".join(show(e) for e in t.elems) + "]" if t.elems else "tuple[()]"
        return f"tuple[{show(t.elem)}, ...]"
    if isinstance(t, TDict):
        return f"dict[{show(t.key)}, {show(t.value)}]"
    if isinstance(t, TRow):
        return t.schema.rsplit(".", 1)[-1]
    if isinstance(t, TRowClass):
        return f"type[{t.schema.rsplit('.', 1)[-1]}]"
    if isinstance(t, TObject):
        return "object"
    return "<error>"


def is_err(*ts: Any) -> bool:
    return any(isinstance(t, TError) for t in ts)


def is_numeric(t: Any) -> bool:
    return isinstance(t, TScalar) and t.name in NUMERIC_RANK


def is_intlike(t: Any) -> bool:
    return isinstance(t, TScalar) and t.name in ("bool", "int")


def unhashable(t: Any) -> bool:
    """A value of type ``t`` may not be a dict key or set element (TypeError at run time).

    ``object`` counts as unhashable: an element of a mixed display (``[1, ["x"]]``) or a trusted
    ``object`` may be a list, a set or a dict, and storing it raises (issue 18, family 5). Lookups
    (``in``, ``.get``) never raise in the interpreter, so only stores ask this."""
    if isinstance(t, (ir.TList, ir.TSet, ir.TDict, ir.TObject)):
        return True
    if isinstance(t, ir.TTuple):
        return any(unhashable(e) for e in (t.elems or ())) or (t.elem is not None and unhashable(t.elem))
    if isinstance(t, ir.TOptional):
        return unhashable(t.inner)
    return False


def surely_unhashable(t: Any) -> bool:
    """Every value of type ``t`` is unhashable (a list, set or dict, or a tuple holding one).

    A lookup (``in`` a set or dict, ``dict.get``) of such a value raises TypeError in CPython where the
    interpreter finds nothing, so the checker refuses it; ``object`` may be either and stays accepted."""
    if isinstance(t, (ir.TList, ir.TSet, ir.TDict)):
        return True
    if isinstance(t, ir.TTuple):
        return any(surely_unhashable(e) for e in (t.elems or ())) or (t.elem is not None and surely_unhashable(t.elem))
    return False


def orderable(a: Any, b: Any) -> bool:
    """``a < b`` is defined in the interpreter for every pair of values of these types.

    Numbers with numbers and str with str; lists with lists and tuples with tuples, position by
    position (only the positions both have are ever compared). Never sets (CPython's ``<`` there is a
    subset test, and the interpreter's sets have no order at all), dicts, None, rows, ``object``, or a
    tuple against a list: each raises TypeError at run time (issue 18, family 4).
    """
    if is_numeric(a) and is_numeric(b):
        return True
    if a == STR and b == STR:
        return True
    if isinstance(a, TList) and isinstance(b, TList):
        return orderable(a.elem, b.elem)
    if isinstance(a, TTuple) and isinstance(b, TTuple):
        if a.elems is not None and b.elems is not None:
            return all(orderable(x, y) for x, y in zip(a.elems, b.elems, strict=False))
        ea = a.elem if a.elems is None else (join_all(list(a.elems)) if a.elems else None)
        eb = b.elem if b.elems is None else (join_all(list(b.elems)) if b.elems else None)
        return ea is None or eb is None or orderable(ea, eb)
    return False


def is_scalar(t: Any) -> bool:
    return isinstance(t, TScalar)


def elem_type(t: Any) -> Any | None:
    """Element type when iterating ``t`` (str yields str, dict yields keys), else None."""
    if isinstance(t, (TList, TSet)):
        return t.elem
    if isinstance(t, TTuple):
        if t.elems is None:
            return t.elem
        return join_all(list(t.elems)) if t.elems else OBJECT
    if t == STR:
        return STR
    if isinstance(t, TDict):
        return t.key
    return None


def numeric_join(a: TScalar, b: TScalar) -> TScalar:
    rank = max(NUMERIC_RANK[a.name], NUMERIC_RANK[b.name])
    return [BOOL, INT, FLOAT][rank]


def join(a: Any, b: Any) -> Any | None:
    """Least common type of two values meeting on merging paths, or None when there is none."""
    if is_err(a, b):
        return ERR
    if a == b:
        return a
    if is_numeric(a) and is_numeric(b):
        return numeric_join(a, b)
    if a == NONE:
        return b if isinstance(b, TOptional) else TOptional(b)
    if b == NONE:
        return a if isinstance(a, TOptional) else TOptional(a)
    if isinstance(a, TOptional) or isinstance(b, TOptional):
        ia = a.inner if isinstance(a, TOptional) else a
        ib = b.inner if isinstance(b, TOptional) else b
        inner = join(ia, ib)
        return None if inner is None else TOptional(inner)
    if isinstance(a, TList) and isinstance(b, TList):
        e = join_elem(a.elem, b.elem)
        return None if e is None else TList(e)
    if isinstance(a, TSet) and isinstance(b, TSet):
        e = join_elem(a.elem, b.elem)
        return None if e is None else TSet(e)
    if isinstance(a, TDict) and isinstance(b, TDict):
        k, v = join_elem(a.key, b.key), join_elem(a.value, b.value)
        return None if k is None or v is None else TDict(k, v)
    if isinstance(a, TTuple) and isinstance(b, TTuple):
        if a.elems is not None and b.elems is not None and len(a.elems) == len(b.elems):
            parts = [join(x, y) for x, y in zip(a.elems, b.elems, strict=True)]
            return None if any(p is None for p in parts) else TTuple(elems=tuple(p for p in parts if p is not None))
        ea, eb = elem_type(a), elem_type(b)
        e = join_elem(ea, eb)
        return None if e is None else TTuple(elem=e)
    return None


def join_elem(a: Any, b: Any) -> Any | None:
    """Join for collection elements; an empty display's element (OBJECT placeholder) adapts."""
    if a == b:
        return a
    j = join(a, b)
    if j is not None:
        return j
    if (is_scalar(a) and is_scalar(b)) or isinstance(a, TObject) or isinstance(b, TObject):
        return OBJECT
    return None


def join_all(ts: list[Any]) -> Any:
    """Element type of a display: joined, or OBJECT for mixed scalars (TYP-1)."""
    if not ts:
        return OBJECT
    out = ts[0]
    for t in ts[1:]:
        j = join_elem(out, t)
        if j is None:
            return OBJECT
        out = j
    return out


def assignable(src: Any, dst: Any) -> bool:
    """Can a value of type ``src`` be passed where ``dst`` is expected (bool ⊂ int ⊂ float)?"""
    if is_err(src, dst):
        return True
    if src == dst or isinstance(dst, TObject):
        return True
    if isinstance(dst, TRowClass) and dst.schema == "*" and isinstance(src, TRowClass):
        return True
    if is_numeric(src) and is_numeric(dst):
        return NUMERIC_RANK[src.name] <= NUMERIC_RANK[dst.name]
    if isinstance(dst, TOptional):
        return src == NONE or assignable(src.inner if isinstance(src, TOptional) else src, dst.inner)
    if isinstance(src, TList) and isinstance(dst, TList):
        return assignable(src.elem, dst.elem) or src.elem == OBJECT
    if isinstance(src, TSet) and isinstance(dst, TSet):
        return assignable(src.elem, dst.elem) or src.elem == OBJECT
    if isinstance(src, TDict) and isinstance(dst, TDict):
        return (assignable(src.key, dst.key) and assignable(src.value, dst.value)) or src.key == OBJECT
    if isinstance(src, TTuple) and isinstance(dst, TTuple):
        if dst.elems is not None:
            return src.elems is not None and len(src.elems) == len(dst.elems) and all(
                assignable(a, b) for a, b in zip(src.elems, dst.elems, strict=True))
        e = elem_type(src)
        return e is not None and assignable(e, dst.elem)
    return False


def strip_optional(t: Any) -> Any:
    return t.inner if isinstance(t, TOptional) else t


# ----------------------------------------------------------------------------- annotations

_TYPING_LIST = {"List", "Sequence", "Iterable"}
_TYPING_MAP = {"Dict", "Mapping"}


def from_runtime(ann: Any, rows: dict[type, str] | None = None) -> Type | None:
    """ir type of a runtime annotation (a trusted function's), or None when outside the subset."""
    rows = rows or {}
    if ann is None or ann is type(None):
        return NONE
    if ann in (bool, int, float, str):
        return SCALARS[ann.__name__]
    if ann is object or ann is typing.Any:
        return OBJECT
    if isinstance(ann, type) and ann in rows:
        return TRow(rows[ann])
    if isinstance(ann, type) and ann.__name__ in ("FilePath", "DirectoryPath") and issubclass(ann, str):
        return STR
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin in (typing.Union, pytypes.UnionType):
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1 and len(args) == 2:
            inner = from_runtime(non_none[0], rows)
            return None if inner is None else TOptional(inner)
        return None
    if origin is list or origin in (typing.List,):  # noqa: UP006
        inner = from_runtime(args[0], rows) if args else OBJECT
        return None if inner is None else TList(inner)
    if origin is set or origin is frozenset:
        inner = from_runtime(args[0], rows) if args else OBJECT
        return None if inner is None else TSet(inner)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = from_runtime(args[0], rows)
            return None if inner is None else TTuple(elem=inner)
        parts = [from_runtime(a, rows) for a in args]
        return None if any(p is None for p in parts) else TTuple(elems=tuple(p for p in parts if p is not None))
    if origin is dict:
        if len(args) != 2:
            return None
        k, v = from_runtime(args[0], rows), from_runtime(args[1], rows)
        return None if k is None or v is None else TDict(k, v)
    if origin is type and args and isinstance(args[0], type) and args[0] in rows:
        return TRowClass(rows[args[0]])
    import collections.abc as cabc

    if origin in (cabc.Sequence, cabc.Iterable):
        inner = from_runtime(args[0], rows) if args else OBJECT
        return None if inner is None else TList(inner)
    if origin is cabc.Mapping and len(args) == 2:
        k, v = from_runtime(args[0], rows), from_runtime(args[1], rows)
        return None if k is None or v is None else TDict(k, v)
    return None


def from_ast(node: ast.expr | None, resolve: typing.Callable[[ast.expr], str | None],
             rows: dict[str, str]) -> Type | None:
    """ir type of an entry-file annotation; ``resolve`` maps a name/attribute to its qualified
    name (``typing.List``, ``builtins.int``…); ``rows`` maps entry/imported Row names to keys."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and node.value is None:
        return NONE
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return from_ast(parse_ast(node.value, mode="eval").body, resolve, rows)
        except SyntaxError:
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = from_ast(node.left, resolve, rows), from_ast(node.right, resolve, rows)
        if left is None or right is None:
            return None
        if right == NONE and left != NONE:
            return TOptional(left)
        if left == NONE and right != NONE:
            return TOptional(right)
        return None
    if isinstance(node, (ast.Name, ast.Attribute)):
        q = resolve(node)
        if q is None:
            return None
        if q.startswith("builtins."):
            base = q.removeprefix("builtins.")
            if base in SCALARS:
                return SCALARS[base]
            containers: dict[str, Type] = {"list": TList(OBJECT), "set": TSet(OBJECT), "dict": TDict(OBJECT, OBJECT),
                                           "object": OBJECT}
            return containers.get(base)
        if q in rows:
            return TRow(rows[q])
        return None
    if isinstance(node, ast.Subscript):
        q = resolve(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
        if q is None:
            return None
        base = q.rsplit(".", 1)[-1]
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if q.startswith("typing.") and base == "Optional" and len(args) == 1:
            inner = from_ast(args[0], resolve, rows)
            return None if inner is None else TOptional(inner)
        if (base in ("list",) and q == "builtins.list") or (q.startswith("typing.") and base in _TYPING_LIST):
            inner = from_ast(args[0], resolve, rows) if len(args) == 1 else None
            return None if inner is None else TList(inner)
        if q in ("builtins.set", "builtins.frozenset", "typing.Set", "typing.FrozenSet"):
            inner = from_ast(args[0], resolve, rows) if len(args) == 1 else None
            return None if inner is None else TSet(inner)
        if q in ("builtins.dict", "typing.Dict", "typing.Mapping") and len(args) == 2:
            k, v = from_ast(args[0], resolve, rows), from_ast(args[1], resolve, rows)
            return None if k is None or v is None else TDict(k, v)
        if q in ("builtins.tuple", "typing.Tuple"):
            if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
                inner = from_ast(args[0], resolve, rows)
                return None if inner is None else TTuple(elem=inner)
            parts = [from_ast(a, resolve, rows) for a in args]
            return None if any(p is None for p in parts) else TTuple(elems=tuple(p for p in parts if p is not None))
        if q in ("builtins.type", "typing.Type") and len(args) == 1:
            inner = from_ast(args[0], resolve, rows)
            return TRowClass(inner.schema) if isinstance(inner, TRow) else None
    return None


def const_type(value: Any) -> Type:
    if value is None:
        return NONE
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return STR
    return OBJECT


__all__ = ["ERR", "TError", "assignable", "const_type", "elem_type", "from_ast", "from_runtime", "ir",
           "is_err", "is_numeric", "join", "join_all", "show", "strip_optional"]
