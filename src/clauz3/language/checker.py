"""The checker: the only component that reads agent source (01 §3). Entry: :func:`check_program`.

IR conventions (choices the IR docstrings leave open)
-----------------------------------------------------
* ``range(a, b, c)`` / ``enumerate(xs[, start])`` appear only as ``For.iter`` or ``ListComp.iter``:
  ``BuiltinCall("range", consts)`` typed ``list[int]``; ``BuiltinCall("enumerate", (iter, [start]))``
  typed ``list[tuple[int, T]]`` (the loop target is a ``TupleTarget``).
* ``for k, v in d.items()``: ``For(TupleTarget((k, v)), MethodCall("dict", "items", d), …)``;
  ``d.keys()`` / ``d.values()`` / ``d.items()`` are typed as lists (indexing them is refused).
* Optional narrowing has no node: inside a branch guarded by ``x is None`` / ``x is not None`` /
  ``x`` (and ``and`` chains, early ``return``), ``Name("x")`` carries the narrowed type.
* A Row class used as a value (a ``type[T]`` effect argument) is ``Const(key, TRowClass(key),
  kind="rowclass")``; typed paths in programs are ``Const(text, str, kind="filepath"|"dirpath")``.
* Module-level literal constants are folded into ``Const`` at every use; ``math.pi`` / ``math.inf``
  likewise. Unary minus on a numeric literal is folded into the ``Const``.
* ``EffectCall.site`` numbers effect call sites of the entry file in source order (a pre-pass),
  then call sites inside trusted helpers in the order they are compiled.
* ``CheckedProgram.effects`` holds the effects the program calls and those named by relations
  (a relation over every effect has ``targets == ()``).
* Helpers with unannotated parameters are specialised per argument types, keyed ``name[t1, t2]``.
* ``CoverageDomain.required`` / ``recommended`` hold contract keys (``<module>.<qualname>``), the
  same strings as ``Guarantee.helper``; ``used_domains`` are domain names (``email``, ``org/d``).
* ``FluentFinalSpec`` for ``F.final.all(pred)`` has ``op == "all"``; the predicate's record has
  fields ``key`` and ``value``.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clauz3.base.astparse import parse_ast
from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import (
    BBuiltin,
    BEffect,
    BModule,
    BOther,
    BRowClass,
    EntryScope,
    literal_const,
    resolve_expr,
)
from clauz3.language.context import LayerView, ProgramContext, Source
from clauz3.language.diagnostics import Diagnostics, Refused
from clauz3.language.digits import fixed_digit_limit
from clauz3.language.effects import build_effect, ensure_row
from clauz3.language.guarantees import Guarantees, Site
from clauz3.language.inline import Inliner
from clauz3.language.modulelevel import ModuleLevel, scan_refusals

if TYPE_CHECKING:
    from clauz3.language.layer import Layer

MAX_BYTES = 256 * 1024
MAX_LINES = 10_000
MAX_NODES = 50_000
MAX_NESTING = 64
MAX_IF_NESTING = 32


def check_program(path: Path, layer: Layer, target: str = "main", allow_imports: Sequence[str] = ()) -> ir.CheckedProgram:
    """Check the entry file at ``path`` against ``layer``; raises :class:`Refused`."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        diag = ir.Diagnostic("error", str(path), 1, 1, "bad-source", f"cannot read the file: {exc.strerror or exc}")
        raise Refused([diag]) from None
    return check_source(data, str(path), layer, target, allow_imports)


def check_source(source: bytes, path: str, layer: Layer, target: str = "main",
                 allow_imports: Sequence[str] = ()) -> ir.CheckedProgram:
    diags = Diagnostics(path)
    text = _decode(source, diags)
    diags.raise_if_errors()
    assert text is not None
    try:
        with fixed_digit_limit():
            tree = parse_ast(text, filename=path)
    except SyntaxError as exc:
        diags.error(exc.lineno or 1, exc.offset or 1, "syntax-error", exc.msg or "invalid syntax")
        diags.raise_if_errors()
        raise
    _measure(tree, diags)
    diags.raise_if_errors()
    entry = Source(path, text)
    ctx = ProgramContext(LayerView(layer), entry, diags, target, tuple(allow_imports), build_effect, ensure_row)
    mod = ModuleLevel(ctx, tree)
    mod.run()
    scope = EntryScope(ctx, mod.bindings)
    inliner = Inliner(ctx, scope, mod.defs, lambda node, sc: _annotation(ctx, node, sc))
    ctx.inliner = inliner
    _number_sites(ctx, mod, scope)

    target_fn = _check_target(ctx, mod, inliner)
    guarantees = _guarantees(ctx, mod, scope)
    compiled = {k.split("[", 1)[0] for k in inliner.cache}
    for name, fdef in mod.defs.items():
        if name not in compiled:
            scan_refusals(ctx, fdef)
    for fdef in mod.extra_defs:
        scan_refusals(ctx, fdef)
    required, coverage, used = _coverage(ctx, mod, guarantees, target_fn)
    diags.raise_if_errors()
    if target_fn is None:  # every path to None reports; never hand out a program without its target
        raise Refused([ir.Diagnostic("error", path, 1, 1, "target-missing", f"no function `{target}` was checked")])
    program = ir.CheckedProgram(
        path=path,
        source_sha256=hashlib.sha256(source).hexdigest(),
        target=target,
        functions=dict(sorted(ctx.functions.items())),
        effects=dict(sorted(ctx.effects.items())),
        rows=dict(sorted(ctx.rows.items())),
        events=dict(sorted(ctx.events.items())),
        fluents=dict(sorted(ctx.fluents.items())),
        guarantees=tuple(guarantees + required),
        coverage=coverage,
        used_domains=used,
        layer_sha256=ctx.layer.fingerprint,
        warnings=tuple(diags.warnings),
    )
    # Where the program meets a deliberate divergence from CPython, a note at the construct (issue 18).
    from clauz3.language.notes import notes

    return dataclasses.replace(program, warnings=program.warnings + tuple(notes(program)))


# ------------------------------------------------------------------------------ source limits


def _decode(source: bytes, diags: Diagnostics) -> str | None:
    if len(source) > MAX_BYTES:
        diags.error(1, 1, "bad-source", f"file of {len(source)} bytes exceeds the limit of {MAX_BYTES} bytes")
        return None
    if b"\x00" in source:
        line = source[: source.index(b"\x00")].count(b"\n") + 1
        diags.error(line, 1, "bad-source", "file contains a NUL byte")
        return None
    if source.startswith(b"\xef\xbb\xbf"):
        source = source[3:]
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = source[: exc.start].count(b"\n") + 1
        diags.error(line, 1, "bad-source", "file is not valid UTF-8")
        return None
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_LINES:
        diags.error(1, 1, "bad-source", f"file of {lines} lines exceeds the limit of {MAX_LINES} lines")
        return None
    return text


def _measure(tree: ast.AST, diags: Diagnostics) -> None:
    count = 0
    worst_depth, worst_if = 0, 0
    stack: list[tuple[ast.AST, int, int]] = [(tree, 0, 0)]
    where: dict[str, ast.AST] = {}
    while stack:
        node, depth, ifs = stack.pop()
        count += 1
        if isinstance(node, ast.If):
            ifs += 1
        if depth > worst_depth:
            worst_depth, where["depth"] = depth, node
        if ifs > worst_if:
            worst_if, where["if"] = ifs, node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.expr_context, ast.operator, ast.cmpop, ast.boolop, ast.unaryop)):
                continue
            is_elif = isinstance(node, ast.If) and isinstance(child, ast.If) and node.orelse == [child]
            stack.append((child, depth + 1, ifs - (1 if is_elif else 0)))
    if count > MAX_NODES:
        diags.error(1, 1, "limit-exceeded", f"{count} syntax nodes exceed the limit of {MAX_NODES}")
    if worst_depth > MAX_NESTING:
        n = where["depth"]
        diags.error(getattr(n, "lineno", 1), getattr(n, "col_offset", 0) + 1, "limit-exceeded",
                    f"nesting depth {worst_depth} exceeds the limit of {MAX_NESTING}")
    if worst_if > MAX_IF_NESTING:
        n = where["if"]
        diags.error(getattr(n, "lineno", 1), getattr(n, "col_offset", 0) + 1, "limit-exceeded",
                    f"`if` nesting {worst_if} exceeds the limit of {MAX_IF_NESTING}")


# ------------------------------------------------------------------------------ resolution


def _annotation(ctx: ProgramContext, node: ast.expr, scope: Any) -> Any:
    def qual(n: ast.expr) -> str | None:
        if isinstance(n, ast.Name):
            b = scope.lookup(n.id, n.lineno, n.col_offset + 1)
            if isinstance(b, BRowClass):
                return b.key
            if isinstance(b, BOther) and b.qualname.startswith(("typing.", "builtins.")):
                return b.qualname
            if isinstance(b, BModule):
                return b.name
            if b is None or isinstance(b, BOther):
                if n.id in ("int", "str", "float", "bool", "list", "set", "dict", "tuple", "type", "frozenset",
                            "object"):
                    return f"builtins.{n.id}"
            if isinstance(b, BBuiltin) and b.name in ("int", "str", "float", "bool", "list", "set", "dict", "tuple"):
                return f"builtins.{b.name}"
            return None
        if isinstance(n, ast.Attribute):
            base = qual(n.value)
            return f"{base}.{n.attr}" if base else None
        return None

    rows = {k: k for k in list(ctx.layer.rows) + list(ctx.entry_rows)}
    t = T.from_ast(node, qual, rows)
    if t is not None:
        for r in _rows_in(t):
            ctx.ensure_row(r)
    return t


def _rows_in(t: Any) -> list[str]:
    if isinstance(t, (ir.TRow, ir.TRowClass)):
        return [t.schema]
    out: list[str] = []
    for attr in ("inner", "elem", "key", "value"):
        sub = getattr(t, attr, None)
        if sub is not None and not isinstance(sub, str):
            out += _rows_in(sub)
    for sub in getattr(t, "elems", None) or ():
        out += _rows_in(sub)
    return out


def _number_sites(ctx: ProgramContext, mod: ModuleLevel, scope: EntryScope) -> None:
    """EffectCall.site: entry-file effect call sites in source order."""
    calls: list[ast.Call] = []
    for fdef in mod.defs.values():
        for node in ast.walk(fdef):
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
                if isinstance(resolve_expr(ctx, scope, node.func), BEffect):
                    calls.append(node)
    calls.sort(key=lambda c: (c.lineno, c.col_offset))
    for c in calls:
        ctx.site_for(ctx.entry.path, c.lineno, ctx.entry.col(c))


# ------------------------------------------------------------------------------ target


TARGET_TYPES_HINT = "annotate with bool, int, float, str, list[T], set[T], dict[K, V] or tuple[T, ...]"


def _check_target(ctx: ProgramContext, mod: ModuleLevel, inliner: Inliner) -> ir.Function | None:
    name = ctx.target
    fdef = mod.defs.get(name)
    if fdef is None:
        if name in mod.bind_counts:
            line, col = mod.bind_sites[name]
            ctx.diags.error(line, col, "target-ambiguous", f"target `{name}` is not a function defined with `def`")
        else:
            ctx.diags.error(1, 1, "target-missing", f"no function `{name}` at module level",
                            f"define `def {name}():`")
        return None
    if mod.bind_counts.get(name, 0) > 1:
        ctx.diags.error(fdef.lineno, ctx.entry.col(fdef), "target-ambiguous",
                        f"target `{name}` is bound more than once at module level")
        return None
    a = fdef.args
    if a.vararg or a.kwarg:
        ctx.diags.error(fdef.lineno, ctx.entry.col(fdef), "target-parameters",
                        f"target `{name}` has `*args`/`**kwargs`")
        return None
    positional = a.posonlyargs + a.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = []
    ok = True
    for i, arg in enumerate(positional + a.kwonlyargs):
        d = defaults[i] if i < len(positional) else a.kw_defaults[i - len(positional)]
        kind = ("positional_only" if i < len(a.posonlyargs) else "positional_or_keyword") if i < len(positional) \
            else "keyword_only"
        t = _annotation(ctx, arg.annotation, inliner.entry_scope) if arg.annotation is not None else None
        if t is None or isinstance(t, (ir.TRow, ir.TRowClass, ir.TObject)) or t == ir.NONE:
            ctx.diags.error(arg.lineno, ctx.entry.col(arg), "target-parameters",
                            f"parameter `{arg.arg}` of `{name}` has no supported type annotation", TARGET_TYPES_HINT)
            ok = False
            continue
        # MOD-5 (00 DEC-14): a parameter without a default is proved for every value of its type;
        # only `run`, which calls the target with no arguments, refuses it (runs/worker.py).
        default = None
        if d is not None:
            try:
                default = literal_const(ast.literal_eval(d), d.lineno, ctx.entry.col(d))
            except (ValueError, SyntaxError, TypeError):
                default = None
            if default is None:
                ctx.diags.error(arg.lineno, ctx.entry.col(arg), "target-parameters",
                                f"the default of parameter `{arg.arg}` of `{name}` is not a literal",
                                "write the default as a literal, e.g. `n: int = 0`")
                ok = False
                continue
        params.append(ir.Param(arg.arg, t, kind, default))
    if not ok:
        return None
    return inliner.compile_target(name, fdef, tuple(params))


# ------------------------------------------------------------------------------ guarantees


def _guarantees(ctx: ProgramContext, mod: ModuleLevel, scope: EntryScope) -> list[ir.Guarantee]:
    g = Guarantees(ctx, lambda node: resolve_expr(ctx, scope, node))
    ctx.guarantee_checker = g
    out: list[ir.Guarantee] = []
    for fdef in mod.all_defs:
        nested = fdef in mod.extra_defs
        sites = g.sites(fdef, module_level=not nested)
        is_target = fdef is mod.defs.get(ctx.target) and not nested
        seen: set[str] = set()
        for site in sites:
            text = ast.dump(site.call)
            if text in seen:
                ctx.diags.warning(site.node.lineno, ctx.entry.col(site.node), "duplicate-guarantee",
                                  f"guarantee `{site.expression}` appears more than once")
            seen.add(text)
            if not is_target:
                # DEC-14: an error, not a warning: the person would approve a guarantee nothing checks.
                ctx.diags.error(site.node.lineno, ctx.entry.col(site.node), "unused-guarantee",
                                f"guarantee `{site.expression}` is on `{fdef.name}`, which is not the target "
                                f"`{ctx.target}`, so it would never be checked",
                                f"move the decorator onto `{ctx.target}`, the function clauz3 runs")
                continue
            built = g.build(site)
            if built is not None:
                out.append(built)
    # GRM-5: source order top to bottom.
    out.sort(key=lambda x: (x.line, x.col))
    return out


def _coverage(ctx: ProgramContext, mod: ModuleLevel, guarantees: list[ir.Guarantee], target_fn: ir.Function | None
              ) -> tuple[list[ir.Guarantee], tuple[ir.CoverageDomain, ...], tuple[str, ...]]:
    reach: set[str] = set()
    todo = [ctx.target]
    while todo:
        k = todo.pop()
        if k in reach:
            continue
        reach.add(k)
        todo.extend(sorted(ctx.calls.get(k, ())))
    called: set[str] = set()
    for k in reach:
        called |= ctx.effect_calls.get(k, set())
    coverage: list[ir.CoverageDomain] = []
    used: list[str] = []
    required: list[ir.Guarantee] = []
    g: Guarantees | None = getattr(ctx, "guarantee_checker", None)
    fdef = mod.defs.get(ctx.target)
    for domain, pol in ctx.layer.policy_list():
        when = tuple(getattr(pol, "when_used", ()) or ())
        req = tuple(getattr(pol, "required", ()) or ())
        rec = tuple(getattr(pol, "recommended", ()) or ())
        coverage.append(ir.CoverageDomain(domain, req, rec, getattr(pol, "label", None)))
        if not any(w in called or any(c.endswith("." + w) for c in called) for w in when):
            continue
        if domain not in used:
            used.append(domain)
        if g is None or fdef is None or target_fn is None:
            continue
        for key in req:
            site = Site(fdef, ast.Call(func=ast.Name(key, ast.Load()), args=[], keywords=[], lineno=fdef.lineno,
                                       col_offset=fdef.col_offset), key, [], {}, "")
            built = g.build(site, kind="required", line=fdef.lineno, col=ctx.entry.col(fdef))
            if built is not None:
                required.append(built)
    return required, tuple(coverage), tuple(used)


__all__ = ["Refused", "check_program", "check_source", "resolve_expr"]
