"""Statements, control flow, ownership and loops of function bodies (01 §3.3, §3.5, MUT-1).

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
from clauz3.language.assignments import ACCUMULATOR_HINT, AssignCompiler, LoopCtx
from clauz3.language.bindings import BBuiltin, BException
from clauz3.language.builtins_table import EXCEPTIONS
from clauz3.language.diagnostics import Diagnostics
from clauz3.language.expressions import Var, copy_env

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


class BodyCompiler(AssignCompiler):
    """Compiles a function body; one instance per function (specialisation)."""

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
                self.ctx._iter_reported = 1
                self.err(node, "limit-exceeded",
                         f"{self.ctx.limits.unrolled_total} unrolled iterations exceed the limit of "
                         f"{MAX_TOTAL_ITERATIONS}")
        env_in = copy_env(self.env)
        real_diags = self.ctx.diags
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
        limits = self.ctx.limits
        counted = (limits.unrolled_total, limits.inlined_sites, getattr(self.ctx, "_iter_reported", 0))
        for _round in range(MAX_FIXPOINT_ROUNDS):
            limits.unrolled_total, limits.inlined_sites, self.ctx._iter_reported = counted
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
            unsettled = []
            for n, v in env_in.items():
                m = merged.get(n)
                if m is not None and _loop_head(v, m) != v:
                    env_in[n] = _loop_head(v, m)
                    unsettled.append(n)
            if not unsettled:
                break
        self.ctx.diags = real_diags
        real_diags.extend(sink)
        if unsettled:
            names = ", ".join(f"`{n}`" for n in unsettled)
            self.err(node, "loop-restriction",
                     f"the type of {names} keeps changing from one iteration of this loop to the next "
                     f"(checked {MAX_FIXPOINT_ROUNDS} times)", "give the variable one type before the loop")
        paths = exits + loop.breaks
        # Bound after the loop only where bound on every path: the loop surely runs (a lower bound
        # on its length, never the upper bound `count`) and no `break` leaves it early.
        runs = int(info.get("min", 0)) > 0
        self.env = merge(paths) if runs and not loop.breaks and exits else merge([env_in, *paths])
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
            parts: list[ir.Type]
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
        return value, elem, {"mode": "unrolled", "count": count, "min": self.min_len(value),
                             "trusted": self.is_trusted(value)}

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
                "mode": "unrolled", "count": count, "min": count}
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
            "mode": "unrolled", "count": info["count"], "min": info.get("min", 0), "trusted": info.get("trusted")}
