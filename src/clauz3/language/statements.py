"""Statements, control flow and loops of function bodies (01 §3.3, §3.5, MUT-1).

:class:`BodyCompiler` compiles one function body: it holds the body's
:class:`~clauz3.language.expressions.ExprCompiler` (with its calls and loop heads) and
:class:`~clauz3.language.assignments.AssignCompiler`, all sharing one
:class:`~clauz3.language.body.Body` (``inline.Inliner.compile`` makes the body, with the
parameters bound, and the compiler over it).

IR conventions fixed here (see also ``checker.py``): ``range(a, b, c)`` and ``enumerate(xs, s)``
appear only as ``For.iter`` / ``ListComp.iter`` as ``BuiltinCall("range"|"enumerate", …)`` typed
``list[int]`` / ``list[tuple[int, T]]``; ``d.items()`` is ``MethodCall("dict", "items")`` typed
``list[tuple[K, V]]`` and destructured by a ``TupleTarget``.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.assignments import AssignCompiler
from clauz3.language.bindings import BException
from clauz3.language.body import Body, LoopCtx, Var, copy_env
from clauz3.language.builtins_table import EXCEPTIONS
from clauz3.language.diagnostics import Diagnostics
from clauz3.language.expressions import ExprCompiler

MAX_LOOP_ITERATIONS = 1_000
MAX_TOTAL_ITERATIONS = 10_000
MAX_FIXPOINT_ROUNDS = 8  # loop-typing rounds before the checker refuses a loop whose types do not settle

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
    REFUSED_STMT[ast.TryStar] = ("`try` statement", None)


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
        first.max_len = None if any(x is None for x in lens) else max(x for x in lens if x is not None)
        first.min_len = min(v.min_len for v in present)
        out[n] = first
    return out


def _loop_head(v: Var, m: Var) -> Var:
    """What an iteration may start with: the name ``v`` before the loop joined with ``m``, its join with
    every way an iteration ends. Length bounds stay those before the loop (insertions in the body
    already count every iteration through ``loop_mult``)."""
    return replace(v, state=m.state, type=m.type, other=m.other, owned=v.owned and m.owned,
                   trusted=m.trusted, refinable=v.refinable and m.refinable, min_len=min(v.min_len, m.min_len))


def _unrefined(v: Var) -> bool:
    t = v.type
    if not v.refinable:
        return False
    if isinstance(t, (ir.TList, ir.TSet)):
        return t.elem == ir.OBJECT
    return isinstance(t, ir.TDict) and t.key == ir.OBJECT and t.value == ir.OBJECT


class BodyCompiler:
    """Compiles a function body; one instance per function (specialisation)."""

    def __init__(self, body: Body) -> None:
        self.body = body
        self.exprs = ExprCompiler(body)
        self.assigns = AssignCompiler(body, self.exprs)
        self.iteration = self.exprs.iteration

    # ------------------------------------------------------------------------ blocks

    def block(self, stmts: list[ast.stmt]) -> tuple[tuple[ir.Stmt, ...], bool]:
        out: list[ir.Stmt] = []
        terminated = False
        for s in stmts:
            if terminated:
                # Unreachable code is still checked (refusals everywhere), but with a throwaway env.
                saved = self.body.env
                self.body.env = copy_env(saved)
                self.stmt(s)
                self.body.env = saved
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
            self.body.err(node, "unsupported-statement", what, hint)
            return None, False
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            self.body.err(node, "unsupported-statement", f"`{type(node).__name__}` statement")
            return None, False
        return method(node)

    # ------------------------------------------------------------------------ simple statements

    def s_Expr(self, node: ast.Expr) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        return ir.ExprStmt(self.exprs.expr(node.value), line, col), False

    def s_Pass(self, node: ast.Pass) -> tuple[ir.Stmt | None, bool]:
        return ir.Pass(*self.body.loc(node)), False

    def s_Assign(self, node: ast.Assign) -> tuple[ir.Stmt | None, bool]:
        return self.assigns.s_Assign(node)

    def s_AnnAssign(self, node: ast.AnnAssign) -> tuple[ir.Stmt | None, bool]:
        return self.assigns.s_AnnAssign(node)

    def s_AugAssign(self, node: ast.AugAssign) -> tuple[ir.Stmt | None, bool]:
        return self.assigns.s_AugAssign(node)

    def s_Return(self, node: ast.Return) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if self.body.loops:
            code = "loop-restriction" if any(lp.mode == "symbolic" for lp in self.body.loops) else "unsupported-statement"
            self.body.err(node, code, "`return` inside a loop", "collect results and return after the loop")
            return None, True
        value = None
        if node.value is not None:
            value = self.exprs.expr(node.value)
            self.body.release(node.value)
        self.body.returns.append((value.type if value is not None else None, node))
        return ir.Return(value, line, col), True

    def s_Break(self, node: ast.Break) -> tuple[ir.Stmt | None, bool]:
        return self.jump(node, "break")

    def s_Continue(self, node: ast.Continue) -> tuple[ir.Stmt | None, bool]:
        return self.jump(node, "continue")

    def jump(self, node: ast.stmt, kind: str) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if not self.body.loops:
            self.body.err(node, "unsupported-statement", f"`{kind}` outside a loop")
            return None, True
        loop = self.body.loops[-1]
        if loop.mode == "symbolic":
            self.body.err(node, "loop-restriction", f"`{kind}` in a loop over a trusted result",
                          "filter with an if inside the loop")
            return None, True
        (loop.breaks if kind == "break" else loop.continues).append(copy_env(self.body.env))
        return (ir.Break(line, col) if kind == "break" else ir.Continue(line, col)), True

    def s_Assert(self, node: ast.Assert) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        test = self.exprs.expr(node.test)
        msg = self.exprs.expr(node.msg) if node.msg is not None else None
        self.exprs.apply(self.exprs.narrowing(node.test)[0])
        return ir.Assert(test, msg, line, col, self.body.seg(node.test)), False

    def s_Raise(self, node: ast.Raise) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if node.exc is None:
            self.body.err(node, "unsupported-statement", "bare `raise`", "raise a built-in exception class")
            return None, True
        if node.cause is not None:
            self.body.err(node, "unsupported-statement", "`raise … from …`")
            return None, True
        exc = node.exc
        call_args: list[ast.expr] = []
        if isinstance(exc, ast.Call):
            if exc.keywords:
                self.body.err(exc, "unsupported-expression", "keyword arguments to an exception")
                return None, True
            call_args = list(exc.args)
            exc = exc.func
        name = exc.id if isinstance(exc, ast.Name) else None
        b = self.body.scope.lookup(name, line, col) if name and name not in self.body.env else None
        if name is None or not isinstance(b, BException) or name not in EXCEPTIONS:
            self.body.err(node, "unsupported-statement", f"raise of `{self.body.seg(exc)}`",
                          "raise a built-in exception class such as ValueError")
            return None, True
        args = tuple(self.exprs.expr(a) for a in call_args)
        return ir.Raise(name, args, line, col, self.body.seg(node)), True

    # ------------------------------------------------------------------------ if

    def s_If(self, node: ast.If) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        test = self.exprs.expr(node.test)
        t_upd, f_upd = self.exprs.narrowing(node.test)
        before = self.body.env
        self.body.env = copy_env(before)
        self.exprs.apply(t_upd)
        body, body_term = self.block(node.body)
        body_env = self.body.env
        self.body.env = copy_env(before)
        self.exprs.apply(f_upd)
        orelse, else_term = self.block(node.orelse)
        else_env = self.body.env
        live = [e for e, term in ((body_env, body_term), (else_env, else_term)) if not term]
        self.body.env = merge(live) if live else else_env
        return ir.If(test, body, orelse, line, col, self.body.seg(node.test)), body_term and else_term

    # ------------------------------------------------------------------------ for

    def s_For(self, node: ast.For) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if node.orelse:
            self.body.err(node, "unsupported-statement", "`for … else`", "use a flag variable set in the loop")
        it, elem, info = self.iteration.iterable(node.iter)
        if it is None:
            return None, False
        mode, count = info["mode"], info.get("count")
        if mode == "symbolic":
            return self.symbolic_for(node, it, elem), False
        if count is not None:
            if count > MAX_LOOP_ITERATIONS:
                self.body.err(node, "limit-exceeded",
                              f"loop of {count} iterations exceeds the limit of {MAX_LOOP_ITERATIONS}")
            self.body.ctx.limits.unrolled_total += count * self.body.loop_mult
            if self.body.ctx.limits.unrolled_total > MAX_TOTAL_ITERATIONS and not getattr(self.body.ctx, "_iter_reported", 0):
                self.body.ctx._iter_reported = 1
                self.body.err(node, "limit-exceeded",
                              f"{self.body.ctx.limits.unrolled_total} unrolled iterations exceed the limit of "
                              f"{MAX_TOTAL_ITERATIONS}")
        env_in = copy_env(self.body.env)
        real_diags = self.body.ctx.diags
        body: tuple[ir.Stmt, ...] = ()
        target: Any = None
        loop = LoopCtx("unrolled")
        exits: list[dict[str, Var]] = []
        unsettled: list[str] = []
        # The body is checked again until what it may leave in every name bound before the loop
        # stops changing (a fixpoint over types, path states and ownership), so a later iteration
        # is checked with every type an earlier one can hand it (issue 18: a chain `c = b; b = a;
        # a = None` reaches `c` only on the third iteration). Names first bound in the body need no
        # round: an iteration's start sees them unbound, so any read before their binding is an
        # error already.
        # Each round counts the body's unrolled iterations and inlined calls afresh (only the last
        # round's diagnostics are kept, so a limit crossed in an earlier round must be crossed again).
        limits = self.body.ctx.limits
        counted = (limits.unrolled_total, limits.inlined_sites, getattr(self.body.ctx, "_iter_reported", 0))
        for _round in range(MAX_FIXPOINT_ROUNDS):
            limits.unrolled_total, limits.inlined_sites, self.body.ctx._iter_reported = counted
            sink = Diagnostics(real_diags.file)
            self.body.ctx.diags = sink
            self.body.env = copy_env(env_in)
            loop = LoopCtx("unrolled")
            self.body.loops.append(loop)
            saved_mult = self.body.loop_mult
            self.body.loop_mult = saved_mult * max(count or 1, 1)
            target = self.iteration.bind_target(node.target, elem, info)
            body, term = self.block(node.body)
            self.body.loop_mult = saved_mult
            self.body.loops.pop()
            exits = ([] if term else [self.body.env]) + loop.continues
            merged = merge([env_in, *exits])
            unsettled = []
            for n, v in env_in.items():
                m = merged.get(n)
                if m is not None and _loop_head(v, m) != v:
                    env_in[n] = _loop_head(v, m)
                    unsettled.append(n)
            if not unsettled:
                break
        self.body.ctx.diags = real_diags
        real_diags.extend(sink)
        if unsettled:
            names = ", ".join(f"`{n}`" for n in unsettled)
            self.body.err(node, "loop-restriction",
                          f"the type of {names} keeps changing from one iteration of this loop to the next "
                          f"(checked {MAX_FIXPOINT_ROUNDS} times)", "give the variable one type before the loop")
        paths = exits + loop.breaks
        # Bound after the loop only where bound on every path: the loop surely runs (a lower bound
        # on its length, never the upper bound `count`) and no `break` leaves it early.
        runs = int(info.get("min", 0)) > 0
        self.body.env = merge(paths) if runs and not loop.breaks and exits else merge([env_in, *paths])
        if target is None:
            return None, False
        return ir.For(target, it, body, "unrolled", line, col), False

    def symbolic_for(self, node: ast.For, it: Any, elem: Any) -> ir.Stmt | None:
        line, col = self.body.loc(node)
        before = copy_env(self.body.env)
        loop = LoopCtx("symbolic", outer={n for n, v in self.body.env.items()})
        self.body.loops.append(loop)
        self.body.symbolic_depth += 1
        target = self.iteration.bind_target(node.target, elem, {"mode": "symbolic"})
        body, _ = self.block(node.body)
        self.body.symbolic_depth -= 1
        self.body.loops.pop()
        for n, v in before.items():
            after = self.body.env.get(n)
            if after is not None:
                v.owned = v.owned and after.owned
        self.body.env = before
        if target is None:
            return None
        return ir.For(target, it, body, "symbolic", line, col)
