"""Module level of the entry file (01 §3.2 MOD-1…4): imports, literal constants, Row classes,
function definitions; plus the syntactic refusal scan of functions the target never reaches."""

from __future__ import annotations

import ast
import os
from typing import Any

from clauz3.language import ir
from clauz3.language.bindings import (
    SAFE_MODULES,
    TYPING_NAMES,
    BConst,
    BFunction,
    Binding,
    BModule,
    BOther,
    BRowClass,
    BTypedPath,
    EntryScope,
    import_safe,
    literal_const,
    module_attr,
    resolve_expr,
)
from clauz3.language.context import ProgramContext
from clauz3.language.expressions import REFUSED_EXPR
from clauz3.language.statements import REFUSED_STMT

STDLIB_ALLOWED = ("math", "typing", "__future__")
ROW_FIELD_TYPES = {"str": str, "int": int, "bool": bool}


class ModuleLevel:
    def __init__(self, ctx: ProgramContext, tree: ast.Module) -> None:
        self.ctx = ctx
        self.tree = tree
        self.bindings: dict[str, Binding] = {}
        self.defs: dict[str, ast.FunctionDef] = {}
        self.all_defs: list[ast.FunctionDef] = []
        self.extra_defs: list[ast.FunctionDef] = []
        self.bind_counts: dict[str, int] = {}
        self.bind_sites: dict[str, tuple[int, int]] = {}

    def err(self, node: ast.AST, code: str, message: str, hint: str | None = None) -> None:
        self.ctx.diags.error(getattr(node, "lineno", 1), self.ctx.entry.col(node), code, message, hint)

    def bind(self, name: str, b: Binding, node: ast.AST) -> None:
        self.bindings[name] = b
        self.bind_counts[name] = self.bind_counts.get(name, 0) + 1
        self.bind_sites.setdefault(name, (getattr(node, "lineno", 1), self.ctx.entry.col(node)))

    def run(self) -> None:
        body = self.tree.body
        for i, node in enumerate(body):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                if i == 0:
                    continue
            if isinstance(node, ast.Pass):
                continue
            if isinstance(node, ast.Import):
                self.import_(node)
            elif isinstance(node, ast.ImportFrom):
                self.import_from(node)
            elif isinstance(node, ast.FunctionDef):
                self.defs[node.name] = node
                self.all_defs.append(node)
                self.bind(node.name, BFunction(node.name, "entry"), node)
                for sub in ast.walk(node):
                    if sub is not node and isinstance(sub, ast.FunctionDef):
                        self.extra_defs.append(sub)
                        self.all_defs.append(sub)
            elif isinstance(node, ast.AsyncFunctionDef):
                self.err(node, "unsupported-statement", "`async def`", "use a synchronous def")
            elif isinstance(node, ast.ClassDef):
                self.class_(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                self.assign(node)
            elif isinstance(node, ast.If) and _is_main_guard(node.test):
                self.err(node, "module-level-code", "`if __name__ == \"__main__\":` block",
                         "remove it; clauz3 calls the target itself")
            else:
                self.err(node, "module-level-code", f"module-level {_what(node)}",
                         "put code inside the target function")

    # ------------------------------------------------------------------------ imports

    def allowed(self, module: str) -> bool:
        if module in SAFE_MODULES or module in self.ctx.allow_imports:
            return True
        if any(module.startswith(a + ".") for a in self.ctx.allow_imports):
            return True
        return self.ctx.layer.is_trusted_module(module)

    def refuse_import(self, node: ast.AST, module: str) -> None:
        hint = None
        if module.split(".")[0] == "tools":
            hint = ("pass --trusted-root tools/<domain>/trusted" if not self.ctx.layer.trusted_packages
                    else "import from a selected trusted package (tools.<domain>.trusted)")
        elif module.startswith("clauz3."):
            hint = "programs may import clauz3 and clauz3.paths"
        else:
            hint = "allowed: clauz3, typing, math, the selected trusted libraries, and --allow-import modules"
        self.err(node, "import-not-allowed", f"import of `{module}`", hint)

    def shadowed(self, node: ast.AST, module: str) -> bool:
        top = module.split(".")[0]
        if top not in STDLIB_ALLOWED:
            return False
        dirs = [os.path.dirname(os.path.abspath(self.ctx.entry.path)), *self.ctx.layer.import_roots]
        for d in dirs:
            for cand in (os.path.join(d, top + ".py"), os.path.join(d, top, "__init__.py")):
                if os.path.exists(cand):
                    self.err(node, "import-shadowed", f"`{top}` resolves to {cand}, not the standard library",
                             f"rename or remove {cand}")
                    return True
        return False

    def module_binding(self, node: ast.AST, module: str) -> Binding | None:
        if module in SAFE_MODULES:
            return BModule(module) if import_safe(module) is not None else None
        if self.ctx.layer.module(module) is not None:
            return BModule(module)
        if self.ctx.layer.is_trusted_module(module):
            return None
        return BModule(module)  # --allow-import: never imported by the checker

    def import_(self, node: ast.Import) -> None:
        for alias in node.names:
            module = alias.name
            if not self.allowed(module):
                self.refuse_import(node, module)
                continue
            if self.shadowed(node, module):
                continue
            if "." in module and alias.asname is None:
                self.err(node, "import-not-allowed", f"unaliased dotted import `import {module}`",
                         f"write `import {module} as <name>`")
                continue
            b = self.module_binding(node, module)
            if b is None:
                self.err(node, "import-not-allowed", f"module `{module}` does not exist in the selected layer")
                continue
            self.bind(alias.asname or module, b, node)

    def import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.err(node, "import-not-allowed", "relative import", "import by absolute name")
            return
        if not self.allowed(module):
            self.refuse_import(node, module)
            return
        if self.shadowed(node, module):
            return
        for alias in node.names:
            if alias.name == "*":
                self.err(node, "import-not-allowed", f"wildcard import from `{module}`", "import names explicitly")
                continue
            if module == "__future__":
                continue
            if module == "typing" and alias.name not in TYPING_NAMES:
                self.err(node, "import-not-allowed", f"`typing.{alias.name}` is not usable in programs",
                         "use the annotation names List, Dict, Set, Tuple, Optional, Sequence, Iterable, Mapping")
                continue
            b = module_attr(module, alias.name, self.ctx, node.lineno, self.ctx.entry.col(node))
            if b is None:
                full = f"{module}.{alias.name}"
                if module in self.ctx.allow_imports or any(module.startswith(a + ".") for a in self.ctx.allow_imports):
                    b = BOther(full, f"`{full}`")
                elif self.allowed(full) and self.ctx.layer.module(full) is not None:
                    b = BModule(full)
                else:
                    self.err(node, "import-not-allowed", f"`{alias.name}` does not exist in `{module}`")
                    continue
            self.bind(alias.asname or alias.name, b, node)

    # ------------------------------------------------------------------------ classes and constants

    def class_(self, node: ast.ClassDef) -> None:
        scope = EntryScope(self.ctx, self.bindings)
        is_row = (len(node.bases) == 1 and not node.keywords and not node.decorator_list
                  and self._is_row_base(resolve_expr(self.ctx, scope, node.bases[0])))
        if not is_row:
            self.err(node, "module-level-code", f"class `{node.name}` that is not a `clauz3.Row` schema",
                     "declare rows as `class X(clauz3.Row)` with annotated fields")
            return
        fields: dict[str, Any] = {}
        for i, item in enumerate(node.body):
            if i == 0 and isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant) \
                    and isinstance(item.value.value, str):
                continue
            if isinstance(item, ast.Pass):
                continue
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is None \
                    and isinstance(item.annotation, ast.Name) and item.annotation.id in ROW_FIELD_TYPES:
                fields[item.target.id] = ROW_FIELD_TYPES[item.annotation.id]
                continue
            self.err(item, "module-level-code", f"row field in `{node.name}` other than `name: str|int|bool`",
                     "rows hold annotated str, int or bool fields without defaults")
            return
        key = f"__entry__.{node.name}"
        cls = _make_row(node.name, fields)
        if cls is not None:
            self.ctx.entry_rows[key] = cls
        self.ctx.rows[key] = ir.RowSchema(key, node.name, tuple(
            (f, {"str": ir.STR, "int": ir.INT, "bool": ir.BOOL}[t.__name__]) for f, t in fields.items()))
        self.bind(node.name, BRowClass(key), node)

    @staticmethod
    def _is_row_base(b: Binding | None) -> bool:
        if not isinstance(b, BOther):
            return False
        return b.qualname in ("clauz3.Row", "clauz3.vocabulary.rows.Row")

    def assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if node.value is None:
            self.err(node, "module-level-code", "bare annotation without a value")
            return
        value = self.literal(node.value)
        if value is _NOT_LITERAL:
            self.err(node.value, "module-level-code", "module-level assignment of a computed value",
                     "only literal constants may be assigned at module level")
            return
        for t in targets:
            self.bind_target(t, value, node)

    def bind_target(self, t: ast.expr, value: Any, node: ast.AST) -> None:
        if isinstance(t, ast.Name):
            c = literal_const(value, getattr(node, "lineno", 1), 1)
            if c is None:
                self.err(node, "module-level-code", "module-level constant outside the literal subset")
                return
            self.bind(t.id, BConst(c), t)
            return
        if isinstance(t, (ast.Tuple, ast.List)) and isinstance(value, (list, tuple)) and len(value) == len(t.elts):
            for sub, v in zip(t.elts, value, strict=True):
                self.bind_target(sub, v, node)
            return
        self.err(t, "module-level-code", "module-level assignment target other than names")

    def literal(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            b = resolve_expr(self.ctx, EntryScope(self.ctx, self.bindings), node.func)
            if isinstance(b, BTypedPath) and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str) and not node.keywords:
                from clauz3.vocabulary import paths

                cls = paths.FilePath if b.kind == "filepath" else paths.DirectoryPath
                try:
                    return cls(node.args[0].value)
                except ValueError as exc:
                    self.err(node, "type-error", f"invalid path literal: {exc}")
                    return None
            return _NOT_LITERAL
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = [self.literal(e) for e in node.elts]
            if any(i is _NOT_LITERAL for i in items):
                return _NOT_LITERAL
            if isinstance(node, ast.List):
                return items
            if isinstance(node, ast.Tuple):
                return tuple(items)
            try:
                return set(items)
            except TypeError:
                return _NOT_LITERAL
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                return _NOT_LITERAL
            keys = [self.literal(k) for k in node.keys if k is not None]
            vals = [self.literal(v) for v in node.values]
            if any(x is _NOT_LITERAL for x in keys + vals):
                return _NOT_LITERAL
            try:
                return dict(zip(keys, vals, strict=True))
            except TypeError:
                return _NOT_LITERAL
        if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
            return _NOT_LITERAL
        if isinstance(node, (ast.Constant, ast.UnaryOp)):
            try:
                v = ast.literal_eval(node)
            except (ValueError, SyntaxError, TypeError):
                return _NOT_LITERAL
            if v is None or type(v) in (bool, int, float, str):
                return v
        return _NOT_LITERAL


_NOT_LITERAL = object()


def _make_row(name: str, fields: dict[str, Any]) -> type | None:
    """A Row class built from an entry-file declaration (never executing agent code), so that
    contract helpers receive a class for a Row-name argument (CON-3)."""
    try:
        import clauz3

        return type(name, (clauz3.Row,), {"__annotations__": dict(fields), "__module__": "__entry__",
                                          "__qualname__": name})
    except Exception:
        return None


def _is_main_guard(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and any(
        isinstance(n, ast.Name) and n.id == "__name__" for n in [test.left, *test.comparators])


def _what(node: ast.AST) -> str:
    names = {ast.Expr: "expression", ast.If: "`if` statement", ast.For: "`for` loop", ast.While: "`while` loop",
             ast.Try: "`try` statement", ast.With: "`with` statement", ast.AugAssign: "augmented assignment",
             ast.Delete: "`del` statement", ast.Global: "`global` statement", ast.Raise: "`raise` statement",
             ast.Assert: "`assert` statement", ast.Match: "`match` statement"}
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        return "call"
    return names.get(type(node), f"`{type(node).__name__}` statement")


def scan_refusals(ctx: ProgramContext, fdef: ast.FunctionDef) -> None:
    """Syntactic refusals in a function the target does not reach (so one run reports them all)."""
    for node in ast.walk(fdef):
        if node is fdef:
            continue
        col = ctx.entry.col(node) if hasattr(node, "col_offset") else 1
        line = getattr(node, "lineno", 1)
        stmt = REFUSED_STMT.get(type(node))
        if stmt is not None:
            ctx.diags.error(line, col, "unsupported-statement", stmt[0], stmt[1])
            continue
        expr = REFUSED_EXPR.get(type(node))
        if expr is not None and not isinstance(node, ast.Starred):
            ctx.diags.error(line, col, "unsupported-expression", expr)
        if isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr.endswith("__"):
            ctx.diags.error(line, col, "unsupported-expression", f"dunder attribute `{ctx.entry.segment(node)}`")
        if isinstance(node, ast.While):
            pass
