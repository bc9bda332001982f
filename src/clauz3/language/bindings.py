"""What a name means: resolution of entry-file imports and of trusted modules' globals.

Entry files are never executed: their imports resolve to *qualified names*, which are then
looked up among the modules the layer (or the checker) has already imported. Trusted code is
resolved through its functions' real ``__globals__``.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import types as pytypes
from dataclasses import dataclass
from typing import Any

from clauz3.language import ir
from clauz3.language.builtins_table import BUILTINS, EXCEPTIONS, MATH_CONSTANTS
from clauz3.language.context import ProgramContext
from clauz3.language.types import const_type, join_all
from clauz3.vocabulary.meta import library_name

PATH_PREDICATES = ("has_no_parent_segments", "is_plain_path", "url_has_no_parent_segments",
                   "is_single_path_component")
TRUSTED_ONLY = {"trusted", "mock", "requires", "ensures", "contract", "effect", "performs", "solver"}
SAFE_MODULES = ("__future__", "clauz3", "clauz3.paths", "typing", "math")
TYPING_NAMES = {"List", "Set", "Dict", "Tuple", "Sequence", "Iterable", "Mapping", "Optional", "Union",
                "FrozenSet", "Type", "Any"}


@dataclass(frozen=True)
class BModule:
    name: str


@dataclass(frozen=True)
class BConst:
    const: ir.Const


@dataclass(frozen=True)
class BEffect:
    name: str


@dataclass(frozen=True)
class BContract:
    key: str


@dataclass(frozen=True)
class BRowClass:
    key: str


@dataclass(frozen=True)
class BFunction:
    """An inlinable function: ``kind`` entry, trusted or path_predicate."""

    key: str
    kind: str
    obj: Any = None


@dataclass(frozen=True)
class BSolver:
    real: str


@dataclass(frozen=True)
class BBuiltin:
    name: str


@dataclass(frozen=True)
class BTypedPath:
    kind: str  # "filepath" | "dirpath"


@dataclass(frozen=True)
class BGuarantee:
    pass


@dataclass(frozen=True)
class BException:
    name: str


@dataclass(frozen=True)
class BOther:
    """Exists but is not usable in a program body; ``what`` names it, ``trusted_only`` for decorators."""

    qualname: str
    what: str
    trusted_only: bool = False


Binding = (BModule | BConst | BEffect | BContract | BRowClass | BFunction | BSolver | BBuiltin | BTypedPath
           | BGuarantee | BException | BOther)


def import_safe(name: str) -> Any:
    """Import one of the checker-safe modules (vocabulary, math, typing) or return it if loaded."""
    if name in SAFE_MODULES:
        try:
            return importlib.import_module(name)
        except ImportError:
            return None
    return None


def literal_const(value: Any, line: int, col: int, depth: int = 0) -> ir.Const | None:
    """A Const for a Python value built from literals (captured or module-level), else None."""
    if depth > 8:
        return None
    if value is None or (isinstance(value, (bool, int, float, str)) and type(value) in (bool, int, float, str)):
        return ir.Const(value, const_type(value), line, col)
    cls_name = type(value).__name__
    if isinstance(value, str) and cls_name in ("FilePath", "DirectoryPath"):
        kind = "filepath" if cls_name == "FilePath" else "dirpath"
        return ir.Const(str(value), ir.STR, line, col, kind)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [literal_const(v, line, col, depth + 1) for v in value]
        if any(i is None for i in items):
            return None
        consts: list[ir.Const] = items  # type: ignore[assignment]  # no item is None (tested just above)
        elem = join_all([c.type for c in consts])
        if isinstance(value, list):
            return ir.Const(tuple(consts), ir.TList(elem), line, col, "list")
        if isinstance(value, tuple):
            return ir.Const(tuple(consts), ir.TTuple(elems=tuple(c.type for c in consts)), line, col, "tuple")
        consts.sort(key=lambda c: repr(c.value))
        return ir.Const(tuple(consts), ir.TSet(elem), line, col, "set")
    if isinstance(value, dict):
        pairs = []
        for k, v in value.items():
            ck, cv = literal_const(k, line, col, depth + 1), literal_const(v, line, col, depth + 1)
            if ck is None or cv is None:
                return None
            pairs.append((ck, cv))
        kt = join_all([p[0].type for p in pairs])
        vt = join_all([p[1].type for p in pairs])
        return ir.Const(tuple(pairs), ir.TDict(kt, vt), line, col, "dict")
    return None


def classify(obj: Any, qualname: str, ctx: ProgramContext, line: int = 0, col: int = 0) -> Binding:
    """Meaning of a runtime object reached through an import or a trusted module's globals."""
    lv = ctx.layer
    if isinstance(obj, pytypes.ModuleType):
        return BModule(obj.__name__)
    if qualname in MATH_CONSTANTS:
        return BConst(ir.Const(MATH_CONSTANTS[qualname], ir.FLOAT, line, col))
    if (qualname in BUILTINS and not BUILTINS[qualname].iterable_only) or qualname.startswith("math."):
        if qualname in BUILTINS:
            return BBuiltin(qualname)
        return BOther(qualname, f"`{qualname}`")
    eff = lv.effect_name(obj)
    if eff is not None:
        return BEffect(eff)
    ckey = lv.contract_key(obj)
    if ckey is not None:
        return BContract(ckey)
    for real, meta in lv.solvers.items():
        if getattr(meta, "real_name", real) == qualname:
            return BSolver(getattr(meta, "real_name", real))
    try:
        import clauz3
    except ImportError:  # pragma: no cover
        clauz3 = None  # type: ignore[assignment]  # without the vocabulary nothing can name it
    if clauz3 is not None:
        if obj is getattr(clauz3, "guarantee", object()):
            return BGuarantee()
        for name in TRUSTED_ONLY:
            if obj is getattr(clauz3, name, object()) or (
                    name in ("contract", "effect") and obj is getattr(getattr(clauz3, "spec", None), name, object())):
                return BOther(qualname, f"`{name}`", trusted_only=True)
        if isinstance(obj, type) and obj.__name__ in ("FilePath", "DirectoryPath") and issubclass(obj, str):
            return BTypedPath("filepath" if obj.__name__ == "FilePath" else "dirpath")
    if isinstance(obj, type):
        key = lv.row_key(obj)
        if key is not None:
            return BRowClass(key)
        return BOther(qualname, f"class `{qualname.rsplit('.', 1)[-1]}`")
    if inspect.isfunction(obj):
        mod = getattr(obj, "__module__", "") or ""
        name = getattr(obj, "__name__", "")
        if mod in ("clauz3.vocabulary.path_safety", "clauz3.vocabulary.paths") and name in PATH_PREDICATES:
            return BFunction(f"clauz3.vocabulary.path_safety.{name}", "path_predicate", obj)
        meta = getattr(obj, "__clauz3__", None)
        if meta is not None and getattr(meta, "trusted", False):
            return BOther(qualname, f"effect `{name}` outside the selected layer")
        if library_name(mod) is not None and lv.is_trusted_module(mod):
            return BFunction(f"{mod}.{obj.__qualname__}", "trusted", obj)
        return BOther(qualname, f"function `{name}`")
    const = literal_const(obj, line, col)
    if const is not None:
        return BConst(const)
    return BOther(qualname, f"`{qualname}`")


def module_attr(mod: str, attr: str, ctx: ProgramContext, line: int = 0, col: int = 0) -> Binding | None:
    """``<module>.<attr>``: a submodule, or a classified attribute; None when it does not exist."""
    full = f"{mod}.{attr}"
    if mod == "math":
        if full in MATH_CONSTANTS:
            return BConst(ir.Const(MATH_CONSTANTS[full], ir.FLOAT, line, col))
        if full in BUILTINS:
            return BBuiltin(full)
        import math

        return BOther(full, f"`{full}`") if hasattr(math, attr) else None
    if mod == "typing":
        import typing

        return BOther(full, f"`{full}`") if hasattr(typing, attr) else None
    sub = ctx.layer.module(full)
    if isinstance(sub, pytypes.ModuleType):
        return BModule(full)
    module = ctx.layer.module(mod) or import_safe(mod)
    if module is None:
        # --allow-import modules are never imported by the checker; only solver models resolve.
        for real in ctx.layer.solvers:
            if real == full:
                return BSolver(full)
        return None
    if not hasattr(module, attr):
        return None
    return classify(getattr(module, attr), full, ctx, line, col)


def builtin_name(name: str) -> Binding | None:
    """Python builtins usable by name in bodies (anything else is unsupported-call)."""
    if name in BUILTINS:
        return BBuiltin(name)
    if name in EXCEPTIONS:
        return BException(name)
    if name in ("True", "False", "None"):
        return None
    if hasattr(builtins, name):
        return BOther(f"builtins.{name}", f"`{name}`")
    return None


class Scope:
    """Module-level names visible from a function body."""

    ctx: ProgramContext  # set by each kind of scope

    def lookup(self, name: str, line: int, col: int) -> Binding | None:
        raise NotImplementedError

    def attr(self, base: Binding, attr: str, line: int, col: int) -> Binding | None:
        if isinstance(base, BModule):
            return module_attr(base.name, attr, self.ctx, line, col)
        return None


class EntryScope(Scope):
    def __init__(self, ctx: ProgramContext, bindings: dict[str, Binding]) -> None:
        self.ctx = ctx
        self.bindings = bindings

    def lookup(self, name: str, line: int, col: int) -> Binding | None:
        b = self.bindings.get(name)
        if isinstance(b, BConst):
            return BConst(_relocate(b.const, line, col))
        if b is not None:
            return b
        return builtin_name(name)


def resolve_expr(ctx: ProgramContext, scope: EntryScope, node: ast.expr) -> Binding | None:
    """What a name or dotted name of the entry file denotes (imports resolved, nothing executed)."""
    if isinstance(node, ast.Name):
        return scope.lookup(node.id, node.lineno, node.col_offset + 1)
    if isinstance(node, ast.Attribute):
        base = resolve_expr(ctx, scope, node.value)
        if isinstance(base, BModule):
            return module_attr(base.name, node.attr, ctx, node.lineno, node.col_offset + 1)
    return None


class TrustedScope(Scope):
    """Globals of a trusted function (its module's namespace)."""

    def __init__(self, ctx: ProgramContext, fn: Any) -> None:
        self.ctx = ctx
        self.globals: dict[str, Any] = getattr(fn, "__globals__", {}) or {}
        self.module = self.globals.get("__name__", "")

    def lookup(self, name: str, line: int, col: int) -> Binding | None:
        if name in self.globals:
            obj = self.globals[name]
            qual = getattr(obj, "__module__", self.module) if callable(obj) else self.module
            qual = f"{qual}.{getattr(obj, '__qualname__', name)}" if callable(obj) else f"{self.module}.{name}"
            if isinstance(obj, pytypes.ModuleType):
                return BModule(obj.__name__)
            return classify(obj, qual, self.ctx, line, col)
        return builtin_name(name)


def _relocate(c: ir.Const, line: int, col: int) -> ir.Const:
    """The same constant, located at its use (module constants are folded at every use)."""
    if c.kind in ("list", "tuple", "set"):
        return ir.Const(tuple(_relocate(v, line, col) for v in c.value), c.type, line, col, c.kind)
    if c.kind == "dict":
        return ir.Const(tuple((_relocate(k, line, col), _relocate(v, line, col)) for k, v in c.value), c.type,
                        line, col, c.kind)
    return ir.Const(c.value, c.type, line, col, c.kind)


relocate = _relocate
