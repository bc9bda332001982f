"""Trusted effects as proofs see them (01 §2.3 EFF-1…6, §2.7): signature, result type (EFF-4),
compiled ``requires``/``ensures`` conditions, performed events and fluent updates.

Effects are built lazily, when the program calls one or a relation names one;
``CheckedProgram.effects`` holds exactly those.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from typing import TYPE_CHECKING, Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import TrustedScope, literal_const
from clauz3.language.body import Body, Var
from clauz3.language.diagnostics import LAYER_SUFFIX, Diagnostics
from clauz3.language.expressions import ExprCompiler

if TYPE_CHECKING:
    from clauz3.language.context import ProgramContext

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
}


def _lambda_node(fn: Any) -> ast.Lambda | None:
    try:
        from clauz3.vocabulary.meta import lambda_node
    except ImportError:  # pragma: no cover
        return None
    node = lambda_node(fn)
    return node if isinstance(node, ast.Lambda) else None


def row_map(ctx: ProgramContext) -> dict[type, str]:
    return {cls: key for key, cls in ctx.layer.rows.items() if isinstance(cls, type)}


def ensure_row(ctx: ProgramContext, key: str) -> None:
    """Add the RowSchema of ``key`` to the program (fields in declaration order, inherited first)."""
    if key in ctx.rows:
        return
    cls = ctx.layer.rows.get(key) or ctx.entry_rows.get(key)
    if cls is None:
        return
    fields = getattr(cls, "__row_fields__", None)
    if fields is None:
        try:
            fields = typing.get_type_hints(cls)
        except Exception:
            fields = {}
    out = []
    for name, tp in fields.items():
        t = T.from_runtime(tp)
        out.append((name, t if t is not None else ir.OBJECT))
    ctx.rows[key] = ir.RowSchema(key, key.rsplit(".", 1)[-1], tuple(out))


def return_type(ctx: ProgramContext, ann: Any, params: dict[str, Any]) -> tuple[Any, str | None, str | None]:
    """(ir type, row_param, problem) for an effect's return annotation per EFF-4."""
    rows = row_map(ctx)
    if ann is inspect.Signature.empty:
        return ir.OBJECT, None, "no return annotation"
    if ann is None or ann is type(None):
        return ir.NONE, None, None
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin is list and len(args) == 1 and isinstance(args[0], typing.TypeVar):
        for pname, pann in params.items():
            if typing.get_origin(pann) is type and typing.get_args(pann) and typing.get_args(pann)[0] is args[0]:
                return ir.TList(ir.OBJECT), pname, None
        return ir.OBJECT, None, f"`{_show_ann(ann)}`"
    t = T.from_runtime(ann, rows)
    if t is None:
        return ir.OBJECT, None, f"`{_show_ann(ann)}`"
    ok = t in (ir.BOOL, ir.INT, ir.FLOAT, ir.STR)
    if isinstance(t, (ir.TList, ir.TSet)) and (T.is_scalar(t.elem) and t.elem != ir.NONE):
        ok = True
    if isinstance(t, ir.TList) and isinstance(t.elem, ir.TRow):
        ok = True
        ensure_row(ctx, t.elem.schema)
    if isinstance(t, ir.TTuple) and t.elem is not None and T.is_scalar(t.elem):
        ok = True
    if isinstance(t, ir.TDict) and T.is_scalar(t.key) and T.is_scalar(t.value):
        ok = True
    return (t, None, None) if ok else (ir.OBJECT, None, f"`{_show_ann(ann)}`")


def _show_ann(ann: Any) -> str:
    if isinstance(ann, type):
        return ann.__name__
    return str(ann).replace("typing.", "")


def build_effect(ctx: ProgramContext, name: str) -> ir.Effect | None:
    fn = ctx.layer.effects.get(name)
    if fn is None:
        return None
    meta = getattr(fn, "__clauz3__", None)
    original = getattr(meta, "original", None) or inspect.unwrap(fn)
    code = original.__code__
    try:
        sig = inspect.signature(original)
        hints = typing.get_type_hints(original)
    except Exception as exc:
        ctx.diags.error(code.co_firstlineno, 1, "layer-error",
                        f"annotations of effect `{original.__name__}` cannot be read: {exc}; {LAYER_SUFFIX}",
                        file=code.co_filename)
        return None
    rows = row_map(ctx)
    params = []
    raw: dict[str, Any] = {}
    row_param_type: dict[str, Any] = {}
    for p in sig.parameters.values():
        if p.kind not in _KINDS:
            ctx.diags.error(code.co_firstlineno, 1, "layer-error",
                            f"effect `{original.__name__}` has a variadic parameter; {LAYER_SUFFIX}",
                            file=code.co_filename)
            return None
        ann = hints.get(p.name, inspect.Parameter.empty)
        raw[p.name] = ann
        if typing.get_origin(ann) is type and typing.get_args(ann) and isinstance(typing.get_args(ann)[0],
                                                                                  typing.TypeVar):
            t: Any = ir.TRowClass("*")
            row_param_type[p.name] = ann
        else:
            t = T.from_runtime(ann, rows) if ann is not inspect.Parameter.empty else ir.OBJECT
            if t is None:
                t = ir.OBJECT
            if isinstance(t, ir.TRow):
                ensure_row(ctx, t.schema)  # a row the program builds and passes in: its fields are read
        default = None
        if p.default is not inspect.Parameter.empty:
            default = literal_const(p.default, code.co_firstlineno, 1) or ir.Const(None, ir.NONE, code.co_firstlineno, 1)
        params.append(ir.Param(p.name, t, _KINDS[p.kind], default))
    rtype, row_param, problem = return_type(ctx, hints.get("return", sig.return_annotation), raw)
    if problem:
        ctx.bad_returns[name] = problem
    ptuple = tuple(params)
    requires, ensures = compile_conditions(ctx, meta, ptuple, rtype, original.__qualname__) if meta else ((), ())
    performs = compile_performs(ctx, meta, ptuple, original) if meta else ()
    updates = compile_fluent(ctx, meta, ptuple, original) if meta else ()
    return ir.Effect(name, original.__name__, ptuple, rtype, requires, ensures, bool(getattr(meta, "mock", False)),
                     performs, updates, code.co_filename, code.co_firstlineno, row_param,
                     tuple((getattr(meta, "protected", None) or {}).items()), getattr(meta, "reads_data", None))


def compile_conditions(ctx: ProgramContext, meta: Any, params: tuple[ir.Param, ...], rtype: Any,
                       qualname: str) -> tuple[tuple[ir.Condition, ...], tuple[ir.Condition, ...]]:
    out: dict[str, list[ir.Condition]] = {"requires": [], "ensures": []}
    for kind in ("requires", "ensures"):
        for cm in getattr(meta, kind, []) or []:
            cond = compile_condition(ctx, cm, params, rtype, qualname, kind)
            if cond is not None:
                out[kind].append(cond)
    return tuple(out["requires"]), tuple(out["ensures"])


def compile_condition(ctx: ProgramContext, cm: Any, params: tuple[ir.Param, ...], rtype: Any, qualname: str,
                      kind: str) -> ir.Condition | None:
    fn = cm.fn
    code = fn.__code__
    node = _lambda_node(fn)
    if node is None:
        ctx.diags.error(code.co_firstlineno, 1, "layer-error",
                        f"condition of `{qualname}` has no readable, unambiguous lambda source; {LAYER_SUFFIX}",
                        file=code.co_filename)
        return None
    src = ctx.source_of(code.co_filename)
    if src is None:
        return None
    body = Body(ctx, TrustedScope(ctx, fn), src, f"{qualname}:{kind}")
    body.in_condition = True
    types = {p.name: p.type for p in params}
    for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
        t = rtype if a.arg == "result" and a.arg not in types else types.get(a.arg, ir.OBJECT)
        body.env[a.arg] = Var(t)
    if T.is_err(rtype) or rtype == ir.OBJECT:
        pass
    sink = Diagnostics(src.path)
    real, ctx.diags = ctx.diags, sink
    try:
        expr = ExprCompiler(body).expr(node.body)
    finally:
        ctx.diags = real
    if sink.has_errors():
        d = sink.errors[0]
        ctx.diags.error(d.line, d.col, "layer-error",
                        f"condition of `{qualname}` is outside the checked subset: {d.message}; {LAYER_SUFFIX}",
                        file=d.file)
        return None
    source = src.segment(node.body)
    lam = src.segment(node)
    default_exc = "PreconditionError" if kind == "requires" else "PostconditionError"
    exc = getattr(cm, "exception", None)
    exc_name = exc.__name__ if isinstance(exc, type) else default_exc
    which = "precondition" if kind == "requires" else "postcondition"
    message = cm.message or f"{which} of {qualname} failed: {lam}"
    return ir.Condition(expr, source, message, exc_name, src.path, node.lineno)


def _lambda_params(node: ast.Lambda) -> list[str]:
    return [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]


def compile_performs(ctx: ProgramContext, meta: Any, params: tuple[ir.Param, ...], original: Any) -> tuple[ir.PerformedEvent, ...]:
    fn = getattr(meta, "performs", None)
    if fn is None:
        return ()
    node = _lambda_node(fn)
    code = fn.__code__
    if node is None:
        ctx.diags.error(code.co_firstlineno, 1, "layer-error",
                        f"`performs` of `{original.__name__}` has no readable lambda; {LAYER_SUFFIX}",
                        file=code.co_filename)
        return ()
    items = node.body.elts if isinstance(node.body, (ast.List, ast.Tuple)) else [node.body]
    # EVT-2: event arguments are the lambda's parameters, each a parameter of the effect by name.
    names = {p.name for p in params} & set(_lambda_params(node))
    out = []
    for item in items:
        if not isinstance(item, ast.Call) or item.keywords or not isinstance(item.func, (ast.Name, ast.Attribute)):
            ctx.diags.error(item.lineno, item.col_offset + 1, "layer-error",
                            f"`performs` of `{original.__name__}` must list event constructions; {LAYER_SUFFIX}",
                            file=code.co_filename)
            continue
        cls = _resolve_global(fn, item.func)
        key = ctx.layer.event_key(cls)
        args = [a.id for a in item.args if isinstance(a, ast.Name) and a.id in names]
        if key is None or len(args) != len(item.args):
            ctx.diags.error(item.lineno, item.col_offset + 1, "layer-error",
                            f"invalid event in `performs` of `{original.__name__}`; {LAYER_SUFFIX}",
                            file=code.co_filename)
            continue
        ensure_event(ctx, key)
        out.append(ir.PerformedEvent(key, tuple(args)))
    return tuple(out)


def _resolve_global(fn: Any, node: ast.expr) -> Any:
    g = getattr(fn, "__globals__", {})
    if isinstance(node, ast.Name):
        return g.get(node.id, getattr(__builtins__, node.id, None) if not isinstance(__builtins__, dict)
                     else __builtins__.get(node.id))
    if isinstance(node, ast.Attribute):
        base = _resolve_global(fn, node.value)
        return getattr(base, node.attr, None) if base is not None else None
    return None


def ensure_event(ctx: ProgramContext, key: str) -> None:
    """Add the EventClass for ``key`` and its Event ancestors to the program."""
    if key in ctx.events:
        return
    cls = ctx.layer.events.get(key)
    if cls is None:
        return
    try:
        from clauz3.vocabulary.events import Event
    except ImportError:  # pragma: no cover
        return
    hints = {}
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        pass
    fields = []
    for f in dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else []:
        t = T.from_runtime(hints.get(f.name, f.type))
        fields.append((f.name, t if t is not None else ir.OBJECT))
    bases = []
    for base in cls.__mro__[1:]:
        if isinstance(base, type) and issubclass(base, Event) and base is not Event:
            bkey = ctx.layer.event_key(base)
            if bkey:
                bases.append(bkey)
    ctx.events[key] = ir.EventClass(key, cls.__name__, tuple(fields), tuple(bases))
    for b in bases:
        ensure_event(ctx, b)


def compile_fluent(ctx: ProgramContext, meta: Any, params: tuple[ir.Param, ...], original: Any) -> tuple[ir.FluentUpdate, ...]:
    fn = getattr(meta, "fluent_effect", None)
    if fn is None:
        return ()
    node = _lambda_node(fn)
    code = fn.__code__
    if node is None:
        ctx.diags.error(code.co_firstlineno, 1, "layer-error",
                        f"fluent effect of `{original.__name__}` has no readable lambda; {LAYER_SUFFIX}",
                        file=code.co_filename)
        return ()
    items = node.body.elts if isinstance(node.body, (ast.List, ast.Tuple)) else [node.body]
    names = {p.name for p in params}
    out = []
    for item in items:
        ok = (isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute) and item.func.attr == "set"
              and len(item.args) == 2 and not item.keywords)
        decl = _resolve_global(fn, item.func.value) if ok else None  # type: ignore[attr-defined]  # ok: item is a Call of an Attribute
        fname = getattr(decl, "name", None)
        parts: list[tuple[str, Any]] = []
        for a in item.args if ok else []:  # type: ignore[attr-defined]  # ok: item is a Call
            if isinstance(a, ast.Name) and a.id in names:
                parts.append(("param", a.id))
            elif isinstance(a, ast.Constant) and isinstance(a.value, (str, int, bool)):
                parts.append(("const", a.value))
        if not ok or fname is None or len(parts) != 2:
            ctx.diags.error(item.lineno, item.col_offset + 1, "layer-error",
                            f"invalid fluent update of `{original.__name__}`; {LAYER_SUFFIX}", file=code.co_filename)
            continue
        ensure_fluent(ctx, decl)
        out.append(ir.FluentUpdate(fname, parts[0], parts[1]))
    return tuple(out)


def ensure_fluent(ctx: ProgramContext, decl: Any) -> None:
    name = decl.name
    if name in ctx.fluents:
        return
    kt = T.from_runtime(getattr(decl, "key", str)) or ir.STR
    vt = T.from_runtime(getattr(decl, "value", bool)) or ir.BOOL
    ctx.fluents[name] = ir.Fluent(name, kt, vt, getattr(decl, "initial", None))
