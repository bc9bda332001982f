"""Inlinable functions (01 §3.6): entry-file helpers, trusted non-effect helpers and the path
predicates of ``clauz3.vocabulary.path_safety``, compiled from source into :class:`ir.Function`.

A helper with unannotated parameters is specialised per distinct tuple of argument types; its
key is then ``name[t1, t2]``. Diagnostics of a compiled function are cached with it and
re-emitted at every use, so loop re-analysis never loses them.
"""

from __future__ import annotations

import ast
import inspect
import typing
from typing import Any, Protocol

from clauz3.base.astparse import parse_ast
from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import BFunction, EntryScope, Scope, TrustedScope, literal_const
from clauz3.language.body import Body, Var
from clauz3.language.context import ProgramContext, Source
from clauz3.language.diagnostics import Diagnostics
from clauz3.language.effects import compile_conditions
from clauz3.language.statements import BodyCompiler

MAX_DEPTH = 16
MAX_INLINED_SITES = 2_000


def assigned_names(fn: ast.FunctionDef) -> dict[str, int]:
    """How many times each local name is bound in the body (targets, loop variables, comprehensions)."""
    counts: dict[str, int] = {}

    def bump(t: ast.AST) -> None:
        for n in ast.walk(t):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                counts[n.id] = counts.get(n.id, 0) + 1

    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign,)):
            for t in node.targets:
                bump(t)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)):
            bump(node.target)
            if isinstance(node, ast.AugAssign):
                counts[getattr(node.target, "id", "")] = counts.get(getattr(node.target, "id", ""), 0) + 1
    return counts


class CallSite(Protocol):
    """The code calling a helper, as the inliner needs it: a place to report refusals."""

    def err(self, node: ast.AST, code: str, message: str, hint: str | None = None) -> object: ...


class AnnotatedSite(Protocol):
    """A call site whose names an annotation is read against."""

    scope: Scope


class Inliner:
    """Compiles and caches functions; resolves their signatures for call sites."""

    def __init__(self, ctx: ProgramContext, entry_scope: EntryScope, entry_defs: dict[str, ast.FunctionDef],
                 annotation_resolver: Any) -> None:
        self.ctx = ctx
        self.entry_scope = entry_scope
        self.entry_defs = entry_defs
        self.resolve_annotation = annotation_resolver  # (ast node, scope) → ir type | None
        self.cache: dict[str, tuple[ir.Function | None, list[ir.Diagnostic]]] = {}
        self.stack: list[str] = []

    # ------------------------------------------------------------------------ sources

    def _def_of(self, b: BFunction) -> tuple[ast.FunctionDef, Source, Scope, Any] | None:
        if b.kind == "entry":
            node = self.entry_defs.get(b.key)
            return (node, self.ctx.entry, self.entry_scope, None) if node is not None else None
        fn = b.obj
        meta = getattr(fn, "__clauz3__", None)
        original = getattr(meta, "original", None) or inspect.unwrap(fn)
        code = getattr(original, "__code__", None)
        if code is None:
            return None
        src = self.ctx.source_of(code.co_filename)
        if src is None:
            return None
        try:
            tree = parse_ast(src.text)
        except SyntaxError:
            return None
        for found in ast.walk(tree):
            if isinstance(found, ast.FunctionDef) and found.name == original.__name__:
                first = min([found.lineno] + [d.lineno for d in found.decorator_list])
                if code.co_firstlineno in (found.lineno, first):
                    return found, src, TrustedScope(self.ctx, original), original
        return None

    def annotation(self, node: ast.expr | None, caller: AnnotatedSite) -> Any:
        if node is None:
            return None
        return self.resolve_annotation(node, caller.scope)

    def _param_types(self, b: BFunction, fdef: ast.FunctionDef, scope: Scope, original: Any) -> list[Any]:
        """Declared parameter types (None where unannotated or outside the subset)."""
        args = fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs
        if original is not None:
            try:
                hints = typing.get_type_hints(original)
            except Exception:
                hints = {}
            return [T.from_runtime(hints[a.arg], self._row_map()) if a.arg in hints else None for a in args]
        return [self.resolve_annotation(a.annotation, scope) if a.annotation is not None else None for a in args]

    def _row_map(self) -> dict[type, str]:
        return {cls: key for key, cls in self.ctx.layer.rows.items() if isinstance(cls, type)}

    def _params(self, b: BFunction, fdef: ast.FunctionDef, scope: Scope, original: Any,
                src: Source) -> tuple[ir.Param, ...] | None:
        a = fdef.args
        if a.vararg or a.kwarg:
            self._report(fdef, src, b, "unsupported-statement", "`*args`/`**kwargs` parameters")
            return None
        declared = self._param_types(b, fdef, scope, original)
        positional = a.posonlyargs + a.args
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        params = []
        for i, arg in enumerate(a.posonlyargs + a.args + a.kwonlyargs):
            if i < len(positional):
                d = defaults[i]
                kind = "positional_only" if i < len(a.posonlyargs) else "positional_or_keyword"
            else:
                d = a.kw_defaults[i - len(positional)]
                kind = "keyword_only"
            default = None
            if d is not None:
                default = self._literal(d)
                if default is None:
                    self._report(d, src, b, "unsupported-expression",
                                 f"default of parameter `{arg.arg}` is not a literal")
                    return None
            t = declared[i]
            if t is None and arg.annotation is not None:
                self._report(arg, src, b, "unsupported-type",
                             f"annotation of parameter `{arg.arg}` is outside the subset")
                return None
            params.append(ir.Param(arg.arg, t if t is not None else T.ERR, kind, default))
        return tuple(params)

    def _literal(self, node: ast.expr) -> ir.Const | None:
        try:
            value = ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError):
            return None
        return literal_const(value, node.lineno, node.col_offset + 1)

    def _report(self, node: ast.AST, src: Source, b: BFunction, code: str, message: str) -> None:
        self.ctx.diags.error(getattr(node, "lineno", 1), src.col(node), code, message, file=src.path)

    # ------------------------------------------------------------------------ call-site API

    def signature(self, b: BFunction, node: ast.Call, caller: CallSite) -> tuple[ir.Param, ...] | None:
        found = self._def_of(b)
        if found is None:
            caller.err(node, "unsupported-call", f"source of `{b.key}` is not readable")
            return None
        fdef, src, scope, original = found
        sink = Diagnostics(src.path)
        real, self.ctx.diags = self.ctx.diags, sink
        try:
            params = self._params(b, fdef, scope, original, src)
        finally:
            self.ctx.diags = real
        if sink.has_errors():
            self._emit(b, sink.errors, node, caller)
            return None
        assert params is not None
        # Unannotated parameters take the argument's type at this call site.
        return tuple(ir.Param(p.name, T.ERR if T.is_err(p.type) else p.type, p.kind, p.default) for p in params)

    def function(self, b: BFunction, arg_types: tuple[Any, ...], node: ast.Call, caller: CallSite) -> ir.Function | None:
        found = self._def_of(b)
        if found is None:
            return None
        fdef, src, scope, original = found
        declared = self._params(b, fdef, scope, original, src) or ()
        unannotated = any(T.is_err(p.type) for p in declared)
        types = tuple(at if T.is_err(p.type) else p.type for p, at in zip(declared, arg_types, strict=False))
        key = b.key if not unannotated else f"{b.key}[{', '.join(T.show(t) for t in types)}]"
        if key in self.stack or b.key in [k.split("[", 1)[0] for k in self.stack]:
            caller.err(node, "recursion", f"recursive call of `{b.key.rsplit('.', 1)[-1]}`",
                       "rewrite it without recursion")
            return None
        if len(self.stack) >= MAX_DEPTH:
            caller.err(node, "limit-exceeded", f"inlining depth exceeds the limit of {MAX_DEPTH}")
            return None
        self.ctx.limits.inlined_sites += 1
        if self.ctx.limits.inlined_sites == MAX_INLINED_SITES + 1:
            caller.err(node, "limit-exceeded", f"more than {MAX_INLINED_SITES} inlined call sites")
        if key not in self.cache:
            origin = {"entry": "entry", "trusted": "trusted", "path_predicate": "path_predicate"}[b.kind]
            sink = Diagnostics(src.path)
            real, self.ctx.diags = self.ctx.diags, sink
            self.stack.append(key)
            try:
                fn = self.compile(key, fdef, src, scope, original, types, declared, origin,
                                  meta=getattr(b.obj, "__clauz3__", None))
            finally:
                self.stack.pop()
                self.ctx.diags = real
            self.cache[key] = (fn, sink.errors)
            if fn is not None and not sink.has_errors():
                self.ctx.functions[key] = fn
        fn, errors = self.cache[key]
        if errors:
            self._emit(b, errors, node, caller)
            return None
        return fn

    def _emit(self, b: BFunction, errors: list[ir.Diagnostic], node: ast.Call, caller: CallSite) -> None:
        if b.kind == "entry":
            for d in errors:
                self.ctx.diags.add(d)
            return
        first = errors[0]
        name = b.key.rsplit(".", 1)[-1]
        caller.err(node, "unsupported-call",
                   f"trusted helper `{name}` is outside the checked subset: {first.message} "
                   f"({first.file}:{first.line})")

    # ------------------------------------------------------------------------ compilation

    def compile(self, key: str, fdef: ast.FunctionDef, src: Source, scope: Scope, original: Any,
                types: tuple[Any, ...], declared: tuple[ir.Param, ...], origin: str,
                target: bool = False, meta: Any = None) -> ir.Function | None:
        counts = assigned_names(fdef)
        body = Body(self.ctx, scope, src, key, set(counts) | {p.name for p in declared})
        body.assign_counts = counts
        params = []
        for p, t in zip(declared, types, strict=False):
            body.env[p.name] = Var(t, owned=False, trusted=False)
            body.assign_counts[p.name] = body.assign_counts.get(p.name, 0) + 1
            params.append(ir.Param(p.name, t, p.kind, p.default))
        body_nodes = list(fdef.body)
        if body_nodes and isinstance(body_nodes[0], ast.Expr) and isinstance(body_nodes[0].value, ast.Constant) \
                and isinstance(body_nodes[0].value.value, str):
            body_nodes = body_nodes[1:]  # docstring
        stmts, terminated = BodyCompiler(body).block(body_nodes)
        value_returns = [(t, n) for t, n in body.returns if n.value is not None
                         and not (isinstance(n.value, ast.Constant) and n.value.value is None)]
        plain = (not terminated) or any(n.value is None for _, n in body.returns)
        if value_returns and plain:
            body.err(fdef, "implicit-none",
                     f"`{fdef.name}` returns a value on some paths and nothing on others",
                     "return a value on every path")
        rtype: Any = ir.NONE
        if value_returns:
            all_returns = [t for t, n in body.returns if t is not None]
            rtype = all_returns[0]
            for (t, n) in [(t, n) for t, n in body.returns if t is not None][1:]:
                j = T.join(rtype, t)
                if j is None:
                    body.err(n, "type-error", f"`{fdef.name}` returns {T.show(rtype)} and {T.show(t)}")
                    break
                rtype = j
        requires: tuple[ir.Condition, ...] = ()
        ensures: tuple[ir.Condition, ...] = ()
        if original is not None and meta is not None:
            requires, ensures = compile_conditions(self.ctx, meta, tuple(params), rtype, original.__qualname__)
        module = getattr(original, "__module__", "__entry__") if original is not None else "__entry__"
        return ir.Function(key, tuple(params), stmts, rtype, bool(value_returns), origin, module, src.path,
                           fdef.lineno, requires, ensures)

    def compile_target(self, name: str, fdef: ast.FunctionDef, params: tuple[ir.Param, ...]) -> ir.Function | None:
        self.stack.append(name)
        try:
            fn = self.compile(name, fdef, self.ctx.entry, self.entry_scope, None, tuple(p.type for p in params),
                              params, "entry", target=True)
        finally:
            self.stack.pop()
        if fn is not None:
            self.ctx.functions[name] = fn
            self.cache[name] = (fn, [])
        return fn

    def path_predicate(self, name: str) -> str:
        return compile_path_predicate(self, name)

    def solver_signature(self, real: str, node: ast.Call, caller: CallSite) -> tuple[tuple[ir.Param, ...], Any, str] | None:
        meta = self.ctx.layer.solvers.get(real)
        fn = getattr(meta, "fn", None)
        if meta is None or fn is None:
            caller.err(node, "unsupported-call", f"call to `{real}` (no solver model)")
            return None
        b = BFunction(f"{fn.__module__}.{fn.__qualname__}", "trusted", fn)
        params = self.signature(b, node, caller)
        if params is None:
            return None
        model = self.function(b, tuple(p.type for p in params), node, caller)
        if model is None:
            return None
        return params, model.returns, model.name


class _SiteCaller:
    """Error sink standing in for a call site when a predicate (not a program) needs a function."""

    def __init__(self, ctx: ProgramContext) -> None:
        self.ctx = ctx
        self.file = ctx.entry.path

    def err(self, node: ast.AST, code: str, message: str, hint: str | None = None) -> None:
        self.ctx.diags.error(getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1, code, message, hint,
                             file=self.file)


def compile_path_predicate(inliner: Inliner, name: str) -> str:
    """Compile ``clauz3.vocabulary.path_safety.<name>`` into the program's functions; returns its key."""
    from clauz3.vocabulary import path_safety as _path_safety

    fn = getattr(_path_safety, name)
    b = BFunction(f"clauz3.vocabulary.path_safety.{name}", "path_predicate", fn)
    key = b.key
    if key not in inliner.ctx.functions:
        node = ast.Call(func=ast.Name(name, ast.Load()), args=[], keywords=[], lineno=1, col_offset=0)
        inliner.function(b, (ir.STR,), node, _SiteCaller(inliner.ctx))
    return key
