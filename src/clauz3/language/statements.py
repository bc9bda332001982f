"""Statements, control flow, ownership and loops of function bodies (01 §3.3, §3.5, MUT-1).

IR conventions fixed here (see also ``checker.py``): ``range(a, b, c)`` and ``enumerate(xs, s)``
appear only as ``For.iter`` / ``ListComp.iter`` as ``BuiltinCall("range"|"enumerate", …)`` typed
``list[int]`` / ``list[tuple[int, T]]``; ``d.items()`` is ``MethodCall("dict", "items")`` typed
``list[tuple[K, V]]`` and destructured by a ``TupleTarget``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import BBuiltin, BException
from clauz3.language.builtins_table import EXCEPTIONS
from clauz3.language.calls import CallCompiler
from clauz3.language.diagnostics import Diagnostics
from clauz3.language.expressions import Var, copy_env

MAX_LOOP_ITERATIONS = 1_000
MAX_TOTAL_ITERATIONS = 10_000
ACCUMULATOR_HINT = "count with a guarantee, or iterate a literal"

REFUSED_STMT: dict[type, tuple[str, str | None]] = {
    ast.While: ("`while` loop", "iterate a literal, a constant range, or a trusted result with `for`"),
    ast.With: ("`with` statement", None),
    ast.AsyncWith: ("`async with` statement", None),
    ast.Try: ("`try` statement", "let the prover show the exception cannot happen"),
    ast.Match: ("`match` statement", "use if/elif"),
    ast.Delete: ("`del` statement", None),
    ast.Global: ("`global` statement", None),
    ast.Nonlocal: ("`nonlocal` statement", None),
    ast.Import: ("`import` inside a function", "move the import to module level"),
    ast.ImportFrom: ("`import` inside a function", "move the import to module level"),
    ast.FunctionDef: ("nested `def`", "define the function at module level"),
    ast.AsyncFunctionDef: ("`async def`", None),
    ast.ClassDef: ("nested `class`", None),
    ast.AsyncFor: ("`async for` loop", None),
}
if hasattr(ast, "TryStar"):
    REFUSED_STMT[ast.TryStar] = ("`try` statement", None)  # type: ignore[attr-defined]


@dataclass
class LoopCtx:
    mode: str
    breaks: list[dict[str, Var]] = field(default_factory=list)
    continues: list[dict[str, Var]] = field(default_factory=list)
    outer: set[str] = field(default_factory=set)


def merge(envs: list[dict[str, Var]]) -> dict[str, Var]:
    """The environment where paths meet: joined types, `maybe` for names some path lacks."""
    if not envs:
        return {}
    if len(envs) == 1:
        return copy_env(envs[0])
    names: list[str] = []
    seen: set[str] = set()
    for e in envs:
        for n in e:
            if n not in seen:
                seen.add(n)
                names.append(n)
    out: dict[str, Var] = {}
    for n in names:
        vs = [e.get(n) for e in envs]
        present = [v for v in vs if v is not None]
        first = replace(present[0])
        if len(present) < len(vs) or any(v.state == "maybe" for v in present):
            first.state = "maybe"
        elif any(v.state == "conflict" for v in present):
            c = next(v for v in present if v.state == "conflict")
            first.state, first.type, first.other = "conflict", c.type, c.other
        else:
            # An empty display still waiting for its first insertion holds no element, so on a path
            # where it stayed empty it takes the element type the other paths gave it
            # (`xs = []` appended to under a branch is a list[str], not a list[object]).
            typed = [v for v in present if not _unrefined(v)] or present
            t = typed[0].type
            for v in typed[1:]:
                j = T.join(t, v.type)
                if j is None:
                    first.state, first.type, first.other = "conflict", t, v.type
                    break
                t = j
            else:
                first.type = t
        first.owned = all(v.owned for v in present)
        first.trusted = all(v.trusted for v in present)
        first.refinable = all(v.refinable for v in present)
        lens = [v.max_len for v in present]
        first.max_len = None if any(x is None for x in lens) else max(lens)  # type: ignore[type-var]
        out[n] = first
    return out


def _unrefined(v: Var) -> bool:
    t = v.type
    if not v.refinable:
        return False
    if isinstance(t, (ir.TList, ir.TSet)):
        return t.elem == ir.OBJECT
    return isinstance(t, ir.TDict) and t.key == ir.OBJECT and t.value == ir.OBJECT


class BodyCompiler(CallCompiler):
    """Compiles a function body; one instance per function (specialisation)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.loops: list[LoopCtx] = []
        self.returns: list[tuple[Any, ast.Return]] = []
        self.assign_counts: dict[str, int] = {}

    # ------------------------------------------------------------------------ blocks

    def block(self, stmts: list[ast.stmt]) -> tuple[tuple[ir.Stmt, ...], bool]:
        out: list[ir.Stmt] = []
        terminated = False
        for s in stmts:
            if terminated:
                # Unreachable code is still checked (refusals everywhere), but with a throwaway env.
                saved = self.env
                self.env = copy_env(saved)
                self.stmt(s)
                self.env = saved
                continue
            r, term = self.stmt(s)
            if r is not None:
                out.append(r)
            terminated = term
        return tuple(out), terminated

    def stmt(self, node: ast.stmt) -> tuple[ir.Stmt | None, bool]:
        refused = REFUSED_STMT.get(type(node))
        if refused is not None:
            what, hint = refused
            self.err(node, "unsupported-statement", what, hint)
            return None, False
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            self.err(node, "unsupported-statement", f"`{type(node).__name__}` statement")
            return None, False
        return method(node)

    # ------------------------------------------------------------------------ assignment

    def bind_name(self, node: ast.AST, name: str, value: Any, value_node: ast.expr | None,
                  declared: Any = None) -> ir.NameTarget:
        self.check_outer_assign(node, name)
        t = value.type
        fresh = isinstance(value, (ir.ListExpr, ir.SetExpr, ir.DictExpr, ir.ListComp)) or (
            isinstance(value, ir.BuiltinCall) and value.name in ("list", "set", "dict"))
        empty = fresh and self.static_len(value) == 0 and isinstance(t, (ir.TList, ir.TSet, ir.TDict))
        refinable = False
        if declared is not None and not T.is_err(t) and empty:
            t = declared
        elif empty and (getattr(t, "elem", None) == ir.OBJECT or getattr(t, "key", None) == ir.OBJECT):
            refinable = True
        trusted = self.is_trusted(value)
        if value_node is not None:
            self.release(value_node)  # MUT-1: bound to a second name, through any expression form
        self.env[name] = Var(t, owned=fresh, trusted=trusted, max_len=self.static_len(value), refinable=refinable,
                             loop_depth=self.symbolic_depth)
        return ir.NameTarget(name, t)

    def check_outer_assign(self, node: ast.AST, name: str) -> None:
        for loop in self.loops:
            if loop.mode == "symbolic" and name in loop.outer:
                self.err(node, "loop-restriction",
                         f"assignment to `{name}`, bound outside the loop over a trusted result",
                         ACCUMULATOR_HINT)
                return

    def is_trusted(self, value: Any) -> bool:
        if isinstance(value, ir.EffectCall):
            return isinstance(value.type, (ir.TList, ir.TSet, ir.TDict, ir.TTuple))
        if isinstance(value, ir.Name):
            v = self.env.get(value.id)
            return bool(v and v.trusted)
        if isinstance(value, ir.Subscript):
            return self.is_trusted(value.value)
        return False

    def s_Assign(self, node: ast.Assign) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if len(node.targets) != 1:
            self.err(node, "unsupported-statement", "chained assignment", "assign one name at a time")
            return None, False
        target = node.targets[0]
        if isinstance(target, ast.Subscript):
            return self.set_item(node, target, node.value)
        value = self.expr(node.value)
        tgt = self.assign_target(target, value, node.value)
        if tgt is None:
            return None, False
        return ir.Assign(tgt, value, line, col), False

    def assign_target(self, target: ast.expr, value: Any, value_node: ast.expr | None) -> ir.Target | None:
        if isinstance(target, ast.Name):
            return self.bind_name(target, target.id, value, value_node)
        if isinstance(target, (ast.Tuple, ast.List)):
            parts = self.destructure(target, value)
            if parts is None:
                return None
            elts = []
            for sub, part in zip(target.elts, parts, strict=True):
                t = self.assign_target(sub, part, None)
                if t is None:
                    return None
                elts.append(t)
            return ir.TupleTarget(tuple(elts))
        if isinstance(target, ast.Attribute):
            self.err(target, "unsupported-statement", "attribute assignment")
        elif isinstance(target, ast.Starred):
            self.err(target, "unsupported-statement", "starred assignment target")
        else:
            self.err(target, "unsupported-statement", "assignment to this target")
        return None

    def destructure(self, target: ast.Tuple | ast.List, value: Any) -> list[Any] | None:
        """Pseudo-values (type carriers) for each element of a destructuring assignment."""
        n = len(target.elts)
        if any(isinstance(e, ast.Starred) for e in target.elts):
            self.err(target, "unsupported-statement", "starred assignment target")
            return None
        t = value.type
        if T.is_err(t):
            return [ir.Const(None, T.ERR, value.line, value.col)] * n
        if isinstance(t, ir.TTuple) and t.elems is not None:
            if len(t.elems) != n:
                self.err(target, "type-error", f"cannot unpack {len(t.elems)} values into {n} names")
                return None
            return [ir.Const(None, e, value.line, value.col) for e in t.elems]
        length = self.static_len(value) if isinstance(value, (ir.ListExpr, ir.TupleExpr, ir.Const)) else None
        e = T.elem_type(t)
        if length is None or e is None:
            self.err(target, "type-error", "destructuring needs a statically known length",
                     "unpack a tuple or a list display")
            return None
        if length != n:
            self.err(target, "type-error", f"cannot unpack {length} values into {n} names")
            return None
        return [ir.Const(None, e, value.line, value.col)] * n

    def s_AnnAssign(self, node: ast.AnnAssign) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if node.value is None:
            self.err(node, "unsupported-statement", "bare annotation without a value")
            return None, False
        if not isinstance(node.target, ast.Name):
            if isinstance(node.target, ast.Subscript):
                return self.set_item(node, node.target, node.value)
            self.err(node.target, "unsupported-statement", "attribute assignment")
            return None, False
        value = self.expr(node.value)
        declared = self.ctx.inliner.annotation(node.annotation, self)  # type: ignore[attr-defined]
        tgt = self.bind_name(node.target, node.target.id, value, node.value, declared)
        return ir.Assign(tgt, value, line, col), False

    def s_AugAssign(self, node: ast.AugAssign) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if not isinstance(node.target, ast.Name):
            self.err(node, "unsupported-statement", "augmented assignment to a subscript or attribute",
                     "assign a new value to a local name")
            return None, False
        name = node.target.id
        current = self.x_Name(node.target)
        self.check_outer_assign(node, name)
        op = {v: k for k, v in {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv,
                                "%": ast.Mod, "**": ast.Pow, "&": ast.BitAnd, "|": ast.BitOr,
                                "^": ast.BitXor, "<<": ast.LShift, ">>": ast.RShift}.items()}.get(type(node.op))
        if op is None:
            self.err(node, "unsupported-statement", "augmented assignment with `@=`")
            return None, False
        value = self.expr(node.value)
        if T.is_err(current.type, value.type):
            return None, False
        if not T.is_scalar(current.type):
            self.err(node, "unsupported-statement", f"augmented assignment to the collection `{name}`",
                     "build a new collection instead")
            return None, False
        if op == "%" and current.type == ir.STR:
            self.err(node, "unsupported-expression", "`%`-formatting", "use an f-string")
            return None, False
        t = self.binop_type(op, current, value)
        if t is None:
            self.err(node, "type-error",
                     f"unsupported operand types for `{op}=`: {T.show(current.type)} and {T.show(value.type)}")
            return None, False
        var = self.env[name]
        var.type = t
        var.max_len = None
        return ir.AugAssign(name, op, value, t, line, col, self.seg(node)), False

    def set_item(self, node: ast.stmt, target: ast.Subscript, value_node: ast.expr) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if isinstance(target.slice, ast.Slice):
            self.err(target, "unsupported-statement", "slice assignment")
            return None, False
        if self.mutation_problem(target.value):
            return None, False
        assert isinstance(target.value, ast.Name)
        name = target.value.id
        var = self.env[name]
        index = self.expr(target.slice)
        value = self.stored(value_node)
        if T.is_err(index.type, value.type):
            return None, False
        t = var.type
        if isinstance(t, ir.TDict) and T.unhashable(index.type):
            self.err(node, "type-error", f"unhashable dict key of type {T.show(index.type)}")
            return None, False
        if isinstance(t, ir.TDict):
            if var.refinable and t.key == ir.OBJECT:
                var.type = ir.TDict(index.type, value.type)
                var.refinable = False
            else:
                if not T.assignable(index.type, t.key) or not T.assignable(value.type, t.value):
                    self.err(node, "type-error",
                             f"cannot store {T.show(index.type)} → {T.show(value.type)} in `{name}` of type "
                             f"{T.show(t)}")
                    return None, False
            if var.max_len is not None:
                var.max_len += self.loop_mult
        elif isinstance(t, ir.TList):
            if not T.is_intlike(index.type):
                self.err(node, "type-error", f"list index must be int, got {T.show(index.type)}")
                return None, False
            if not T.assignable(value.type, t.elem):
                self.err(node, "type-error", f"cannot store {T.show(value.type)} in `{name}` of type {T.show(t)}")
                return None, False
        else:
            self.err(node, "type-error", f"`{name}` of type {T.show(t)} does not support item assignment")
            return None, False
        return ir.SetItem(name, index, value, line, col), False

    def mutation_problem(self, target: ast.expr) -> bool:
        """Report (and return True) when mutating ``target`` breaks MUT-1 or LOOP-3."""
        if not isinstance(target, ast.Name) or target.id not in self.env:
            what = self.seg(target)
            self.err(target, "mutation-not-owned", f"mutation of `{what}`, which this function does not own",
                     "build a new local collection and mutate that")
            return True
        if self.in_condition:
            self.err(target, "unsupported-call", "mutation inside a condition")
            return True
        var = self.env[target.id]
        if any(loop.mode == "symbolic" for loop in self.loops):
            self.err(target, "loop-restriction", f"mutation of `{target.id}` inside a loop over a trusted result",
                     ACCUMULATOR_HINT)
            return True
        if not var.owned:
            t = var.type
            if not isinstance(t, (ir.TList, ir.TSet, ir.TDict)):
                self.err(target, "type-error", f"`{target.id}` of type {T.show(t)} cannot be changed in place",
                         "build the new value and assign it to the name")
                return True
            why = "a trusted result (read-only)" if var.trusted else "not uniquely owned by this function"
            copy = "dict" if isinstance(t, ir.TDict) else "set" if isinstance(t, ir.TSet) else "list"
            self.err(target, "mutation-not-owned", f"mutation of `{target.id}`, which is {why}",
                     f"copy it with {copy}(...) first and mutate the copy")
            return True
        return False

    # ------------------------------------------------------------------------ simple statements

    def s_Expr(self, node: ast.Expr) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        return ir.ExprStmt(self.expr(node.value), line, col), False

    def s_Pass(self, node: ast.Pass) -> tuple[ir.Stmt | None, bool]:
        return ir.Pass(*self.loc(node)), False

    def s_Return(self, node: ast.Return) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if self.loops:
            code = "loop-restriction" if any(lp.mode == "symbolic" for lp in self.loops) else "unsupported-statement"
            self.err(node, code, "`return` inside a loop", "collect results and return after the loop")
            return None, True
        value = None
        if node.value is not None:
            value = self.expr(node.value)
            self.release(node.value)
        self.returns.append((value.type if value is not None else None, node))
        return ir.Return(value, line, col), True

    def s_Break(self, node: ast.Break) -> tuple[ir.Stmt | None, bool]:
        return self.jump(node, "break")

    def s_Continue(self, node: ast.Continue) -> tuple[ir.Stmt | None, bool]:
        return self.jump(node, "continue")

    def jump(self, node: ast.stmt, kind: str) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if not self.loops:
            self.err(node, "unsupported-statement", f"`{kind}` outside a loop")
            return None, True
        loop = self.loops[-1]
        if loop.mode == "symbolic":
            self.err(node, "loop-restriction", f"`{kind}` in a loop over a trusted result",
                     "filter with an if inside the loop")
            return None, True
        (loop.breaks if kind == "break" else loop.continues).append(copy_env(self.env))
        return (ir.Break(line, col) if kind == "break" else ir.Continue(line, col)), True

    def s_Assert(self, node: ast.Assert) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        test = self.expr(node.test)
        msg = self.expr(node.msg) if node.msg is not None else None
        self.apply(self.narrowing(node.test)[0])
        return ir.Assert(test, msg, line, col, self.seg(node.test)), False

    def s_Raise(self, node: ast.Raise) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if node.exc is None:
            self.err(node, "unsupported-statement", "bare `raise`", "raise a built-in exception class")
            return None, True
        if node.cause is not None:
            self.err(node, "unsupported-statement", "`raise … from …`")
            return None, True
        exc = node.exc
        call_args: list[ast.expr] = []
        if isinstance(exc, ast.Call):
            if exc.keywords:
                self.err(exc, "unsupported-expression", "keyword arguments to an exception")
                return None, True
            call_args = list(exc.args)
            exc = exc.func
        name = exc.id if isinstance(exc, ast.Name) else None
        b = self.scope.lookup(name, line, col) if name and name not in self.env else None
        if name is None or not isinstance(b, BException) or name not in EXCEPTIONS:
            self.err(node, "unsupported-statement", f"raise of `{self.seg(exc)}`",
                     "raise a built-in exception class such as ValueError")
            return None, True
        args = tuple(self.expr(a) for a in call_args)
        return ir.Raise(name, args, line, col, self.seg(node)), True

    # ------------------------------------------------------------------------ if

    def s_If(self, node: ast.If) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        test = self.expr(node.test)
        t_upd, f_upd = self.narrowing(node.test)
        before = self.env
        self.env = copy_env(before)
        self.apply(t_upd)
        body, body_term = self.block(node.body)
        body_env = self.env
        self.env = copy_env(before)
        self.apply(f_upd)
        orelse, else_term = self.block(node.orelse)
        else_env = self.env
        live = [e for e, term in ((body_env, body_term), (else_env, else_term)) if not term]
        self.env = merge(live) if live else else_env
        return ir.If(test, body, orelse, line, col, self.seg(node.test)), body_term and else_term

    # ------------------------------------------------------------------------ for

    def s_For(self, node: ast.For) -> tuple[ir.Stmt | None, bool]:
        line, col = self.loc(node)
        if node.orelse:
            self.err(node, "unsupported-statement", "`for … else`", "use a flag variable set in the loop")
        it, elem, info = self.iterable(node.iter)
        if it is None:
            return None, False
        mode, count = info["mode"], info.get("count")
        if mode == "symbolic":
            return self.symbolic_for(node, it, elem), False
        if count is not None:
            if count > MAX_LOOP_ITERATIONS:
                self.err(node, "limit-exceeded",
                         f"loop of {count} iterations exceeds the limit of {MAX_LOOP_ITERATIONS}")
            self.ctx.limits.unrolled_total += count * self.loop_mult
            if self.ctx.limits.unrolled_total > MAX_TOTAL_ITERATIONS and not getattr(self.ctx, "_iter_reported", 0):
                self.ctx._iter_reported = 1  # type: ignore[attr-defined]
                self.err(node, "limit-exceeded",
                         f"{self.ctx.limits.unrolled_total} unrolled iterations exceed the limit of "
                         f"{MAX_TOTAL_ITERATIONS}")
        env_in = copy_env(self.env)
        real_diags = self.ctx.diags
        body: tuple[ir.Stmt, ...] = ()
        target: Any = None
        loop = LoopCtx("unrolled")
        exits: list[dict[str, Var]] = []
        for _attempt in range(4):
            sink = Diagnostics(real_diags.file)
            self.ctx.diags = sink
            self.env = copy_env(env_in)
            loop = LoopCtx("unrolled")
            self.loops.append(loop)
            saved_mult = self.loop_mult
            self.loop_mult = saved_mult * max(count or 1, 1)
            target = self.bind_target(node.target, elem, info)
            body, term = self.block(node.body)
            self.loop_mult = saved_mult
            self.loops.pop()
            exits = ([] if term else [self.env]) + loop.continues
            merged = merge([env_in, *exits])
            changed = False
            for n, v in env_in.items():
                m = merged.get(n)
                if m is not None and m.state == "bound" and v.state == "bound" and m.type != v.type:
                    env_in[n] = replace(v, type=m.type)
                    changed = True
            if not changed:
                break
        self.ctx.diags = real_diags
        real_diags.extend(sink)
        paths = exits + loop.breaks
        self.env = merge(paths) if count and count > 0 and not loop.breaks and exits else merge([env_in, *paths])
        if target is None:
            return None, False
        return ir.For(target, it, body, "unrolled", line, col), False

    def symbolic_for(self, node: ast.For, it: Any, elem: Any) -> ir.Stmt | None:
        line, col = self.loc(node)
        before = copy_env(self.env)
        loop = LoopCtx("symbolic", outer={n for n, v in self.env.items()})
        self.loops.append(loop)
        self.symbolic_depth += 1
        target = self.bind_target(node.target, elem, {"mode": "symbolic"})
        body, _ = self.block(node.body)
        self.symbolic_depth -= 1
        self.loops.pop()
        for n, v in before.items():
            after = self.env.get(n)
            if after is not None:
                v.owned = v.owned and after.owned
        self.env = before
        if target is None:
            return None
        return ir.For(target, it, body, "symbolic", line, col)

    def bind_target(self, target: ast.expr, elem: Any, info: dict[str, Any]) -> ir.Target | None:
        symbolic = info.get("mode") == "symbolic"
        if isinstance(target, ast.Name):
            if not symbolic:
                self.check_outer_assign(target, target.id)
            elif any(lp.mode == "symbolic" and target.id in lp.outer for lp in self.loops[:-1]) or (
                    self.loops and target.id in self.loops[-1].outer):
                self.err(target, "loop-restriction",
                         f"loop variable `{target.id}` is already bound outside the loop", ACCUMULATOR_HINT)
            self.env[target.id] = Var(elem, trusted=symbolic or bool(info.get("trusted")),
                                      loop_depth=self.symbolic_depth)
            return ir.NameTarget(target.id, elem)
        if isinstance(target, (ast.Tuple, ast.List)):
            if symbolic:
                self.err(target, "loop-restriction", "tuple target in a loop over a trusted result",
                         "bind the row and read its fields")
                return None
            if T.is_err(elem):
                parts = [T.ERR] * len(target.elts)
            elif isinstance(elem, ir.TTuple) and elem.elems is not None and len(elem.elems) == len(target.elts):
                parts = list(elem.elems)
            else:
                self.err(target, "type-error", f"cannot unpack {T.show(elem)} into {len(target.elts)} names")
                return None
            elts = []
            for sub, t in zip(target.elts, parts, strict=True):
                r = self.bind_target(sub, t, info)
                if r is None:
                    return None
                elts.append(r)
            return ir.TupleTarget(tuple(elts))
        self.err(target, "unsupported-statement", "loop target other than names")
        return None

    # ------------------------------------------------------------------------ iterables

    def iterable(self, node: ast.expr, comprehension: bool = False) -> tuple[Any, Any, dict[str, Any]]:
        """(iter IR, element type, {mode, count}) or (None, ERR, {}) after reporting."""
        line, col = self.loc(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.env \
                and node.func.id not in self.locals:
            b = self.scope.lookup(node.func.id, line, col)
            if isinstance(b, BBuiltin) and b.name in ("range", "enumerate"):
                return self.range_or_enumerate(node, b.name, comprehension)
        value = self.expr(node)
        t = value.type
        if T.is_err(t):
            return None, T.ERR, {}
        elem = T.elem_type(t)
        if elem is None:
            self.err(node, "type-error", f"{T.show(t)} is not iterable")
            return None, T.ERR, {}
        if self.is_trusted(value) and isinstance(t, ir.TList):
            stable = not isinstance(value, ir.Name) or self.assign_counts.get(value.id, 0) <= 1
            if comprehension:
                self.err(node, "loop-restriction", "comprehension over a trusted result", "use a for loop")
                return None, T.ERR, {}
            if stable:
                return value, elem, {"mode": "symbolic"}
        count = self.static_len(value)
        if count is None:
            self.err(node, "loop-restriction",
                     f"loop over `{self.seg(node)}`, whose length is not bounded by a constant",
                     "iterate a literal, a constant range, or a trusted result")
            return None, T.ERR, {}
        return value, elem, {"mode": "unrolled", "count": count, "trusted": self.is_trusted(value)}

    def range_or_enumerate(self, node: ast.Call, name: str, comprehension: bool) -> tuple[Any, Any, dict[str, Any]]:
        line, col = self.loc(node)
        if node.keywords:
            self.err(node, "unsupported-call", f"keyword arguments to `{name}`")
            return None, T.ERR, {}
        if name == "range":
            if not 1 <= len(node.args) <= 3:
                self.err(node, "type-error", f"`range` takes 1–3 arguments, got {len(node.args)}")
                return None, T.ERR, {}
            args = [self.expr(a) for a in node.args]
            if T.is_err(*[a.type for a in args]):
                return None, T.ERR, {}
            vals = []
            for a, a_node in zip(args, node.args, strict=True):
                if not (isinstance(a, ir.Const) and type(a.value) is int):
                    self.err(a_node, "loop-restriction", "`range` argument that is not a constant int",
                             "use constant bounds")
                    return None, T.ERR, {}
                vals.append(a.value)
            if len(vals) == 3 and vals[2] == 0:
                self.err(node, "type-error", "`range` step must not be zero")
                return None, T.ERR, {}
            count = len(range(*vals))
            return ir.BuiltinCall("range", tuple(args), (), ir.TList(ir.INT), line, col, self.seg(node)), ir.INT, {
                "mode": "unrolled", "count": count}
        if not 1 <= len(node.args) <= 2:
            self.err(node, "type-error", f"`enumerate` takes 1–2 arguments, got {len(node.args)}")
            return None, T.ERR, {}
        inner, elem, info = self.iterable(node.args[0], comprehension)
        if inner is None:
            return None, T.ERR, {}
        if info["mode"] != "unrolled":
            self.err(node, "loop-restriction", "`enumerate` of a trusted result", "iterate the result directly")
            return None, T.ERR, {}
        args = [inner]
        if len(node.args) == 2:
            start = self.expr(node.args[1])
            if not (isinstance(start, ir.Const) and type(start.value) is int):
                self.err(node.args[1], "loop-restriction", "`enumerate` start that is not a constant int")
                return None, T.ERR, {}
            args.append(start)
        t = ir.TTuple(elems=(ir.INT, elem))
        return ir.BuiltinCall("enumerate", tuple(args), (), ir.TList(t), line, col, self.seg(node)), t, {
            "mode": "unrolled", "count": info["count"], "trusted": info.get("trusted")}

    def static_len(self, e: Any) -> int | None:
        """A constant bound on the length of ``e`` known during analysis (LOOP-1), else None."""
        if isinstance(e, (ir.ListExpr, ir.TupleExpr, ir.SetExpr)):
            return len(e.elts)
        if isinstance(e, ir.DictExpr):
            return len(e.keys)
        if isinstance(e, ir.Const):
            if e.kind in ("list", "tuple", "set", "dict"):
                return len(e.value)
            if isinstance(e.value, str) and e.kind == "scalar":
                return len(e.value)
            return None
        if isinstance(e, ir.Name):
            v = self.env.get(e.id)
            return v.max_len if v is not None and not v.trusted else None
        if isinstance(e, ir.ListComp):
            return self.static_len(e.iter)
        if isinstance(e, ir.BuiltinCall):
            if e.name in ("list", "set", "tuple", "dict"):
                return self.static_len(e.args[0]) if e.args else 0
            if e.name == "enumerate":
                return self.static_len(e.args[0])
            if e.name == "range" and all(isinstance(a, ir.Const) for a in e.args):
                return len(range(*[a.value for a in e.args]))
            return None
        if isinstance(e, ir.MethodCall) and e.receiver == "dict" and e.method in ("keys", "values", "items"):
            return self.static_len(e.obj)
        if isinstance(e, ir.MethodCall) and e.receiver == "str" and e.method == "split":
            return None
        if isinstance(e, ir.BinOp) and e.op == "+":
            a, b = self.static_len(e.left), self.static_len(e.right)
            return None if a is None or b is None else a + b
        if isinstance(e, ir.Slice):
            return self.static_len(e.value)
        return None

    def static_len_of_type(self, node: ast.expr) -> int | None:
        """Length bound of an already-typed argument node (re-reads names only; no new diagnostics)."""
        if isinstance(node, ast.Name) and node.id in self.env:
            v = self.env[node.id]
            return None if v.trusted else v.max_len
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return len(node.elts)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return len(node.value)
        return None
