"""Loop heads: what a ``for`` statement or a list comprehension iterates, and the names it binds
(01 §3.5, LOOP-1..3).

An iterable is unrolled (a literal, a constant ``range``, a collection whose length is bounded by a
constant) or symbolic (a trusted result, iterated once as a whole by the prover). :class:`Iteration`
is held by the function's ``expressions.ExprCompiler`` (comprehensions) and used by
``statements.BodyCompiler`` (``for``); it shares their :class:`clauz3.language.body.Body`.
"""

from __future__ import annotations

import ast
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import BBuiltin
from clauz3.language.body import ACCUMULATOR_HINT, Body, Expressions, Var


class Iteration:
    """The loop heads of one function body."""

    def __init__(self, body: Body, exprs: Expressions) -> None:
        self.body = body
        self.exprs = exprs

    def iterable(self, node: ast.expr, comprehension: bool = False) -> tuple[Any, Any, dict[str, Any]]:
        """(iter IR, element type, {mode, count}) or (None, ERR, {}) after reporting."""
        line, col = self.body.loc(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.body.env \
                and node.func.id not in self.body.locals:
            b = self.body.scope.lookup(node.func.id, line, col)
            if isinstance(b, BBuiltin) and b.name in ("range", "enumerate"):
                return self.range_or_enumerate(node, b.name, comprehension)
        value = self.exprs.expr(node)
        t = value.type
        if T.is_err(t):
            return None, T.ERR, {}
        elem = T.elem_type(t)
        if elem is None:
            self.body.err(node, "type-error", f"{T.show(t)} is not iterable")
            return None, T.ERR, {}
        if self.body.is_trusted(value) and isinstance(t, ir.TList):
            stable = not isinstance(value, ir.Name) or self.body.assign_counts.get(value.id, 0) <= 1
            if comprehension:
                self.body.err(node, "loop-restriction", "comprehension over a trusted result", "use a for loop")
                return None, T.ERR, {}
            if stable:
                return value, elem, {"mode": "symbolic"}
        count = self.body.static_len(value)
        if count is None:
            self.body.err(node, "loop-restriction",
                          f"loop over `{self.body.seg(node)}`, whose length is not bounded by a constant",
                          "iterate a literal, a constant range, or a trusted result")
            return None, T.ERR, {}
        return value, elem, {"mode": "unrolled", "count": count, "min": self.body.min_len(value),
                             "trusted": self.body.is_trusted(value)}

    def range_or_enumerate(self, node: ast.Call, name: str, comprehension: bool) -> tuple[Any, Any, dict[str, Any]]:
        line, col = self.body.loc(node)
        if node.keywords:
            self.body.err(node, "unsupported-call", f"keyword arguments to `{name}`")
            return None, T.ERR, {}
        if name == "range":
            if not 1 <= len(node.args) <= 3:
                self.body.err(node, "type-error", f"`range` takes 1–3 arguments, got {len(node.args)}")
                return None, T.ERR, {}
            args = [self.exprs.expr(a) for a in node.args]
            if T.is_err(*[a.type for a in args]):
                return None, T.ERR, {}
            vals = []
            for a, a_node in zip(args, node.args, strict=True):
                if not (isinstance(a, ir.Const) and type(a.value) is int):
                    self.body.err(a_node, "loop-restriction", "`range` argument that is not a constant int",
                                  "use constant bounds")
                    return None, T.ERR, {}
                vals.append(a.value)
            if len(vals) == 3 and vals[2] == 0:
                self.body.err(node, "type-error", "`range` step must not be zero")
                return None, T.ERR, {}
            count = len(range(*vals))
            return ir.BuiltinCall("range", tuple(args), (), ir.TList(ir.INT), line, col, self.body.seg(node)), ir.INT, {
                "mode": "unrolled", "count": count, "min": count}
        if not 1 <= len(node.args) <= 2:
            self.body.err(node, "type-error", f"`enumerate` takes 1–2 arguments, got {len(node.args)}")
            return None, T.ERR, {}
        inner, elem, info = self.iterable(node.args[0], comprehension)
        if inner is None:
            return None, T.ERR, {}
        if info["mode"] != "unrolled":
            self.body.err(node, "loop-restriction", "`enumerate` of a trusted result", "iterate the result directly")
            return None, T.ERR, {}
        args = [inner]
        if len(node.args) == 2:
            start = self.exprs.expr(node.args[1])
            if not (isinstance(start, ir.Const) and type(start.value) is int):
                self.body.err(node.args[1], "loop-restriction", "`enumerate` start that is not a constant int")
                return None, T.ERR, {}
            args.append(start)
        t = ir.TTuple(elems=(ir.INT, elem))
        return ir.BuiltinCall("enumerate", tuple(args), (), ir.TList(t), line, col, self.body.seg(node)), t, {
            "mode": "unrolled", "count": info["count"], "min": info.get("min", 0), "trusted": info.get("trusted")}

    def bind_target(self, target: ast.expr, elem: Any, info: dict[str, Any]) -> ir.Target | None:
        symbolic = info.get("mode") == "symbolic"
        if isinstance(target, ast.Name):
            if not symbolic:
                self.body.check_outer_assign(target, target.id)
            elif any(lp.mode == "symbolic" and target.id in lp.outer for lp in self.body.loops[:-1]) or (
                    self.body.loops and target.id in self.body.loops[-1].outer):
                self.body.err(target, "loop-restriction",
                              f"loop variable `{target.id}` is already bound outside the loop", ACCUMULATOR_HINT)
            self.body.env[target.id] = Var(elem, trusted=symbolic or bool(info.get("trusted")),
                                           loop_depth=self.body.symbolic_depth)
            return ir.NameTarget(target.id, elem)
        if isinstance(target, (ast.Tuple, ast.List)):
            if symbolic:
                self.body.err(target, "loop-restriction", "tuple target in a loop over a trusted result",
                              "bind the row and read its fields")
                return None
            parts: list[ir.Type]
            if T.is_err(elem):
                parts = [T.ERR] * len(target.elts)
            elif isinstance(elem, ir.TTuple) and elem.elems is not None and len(elem.elems) == len(target.elts):
                parts = list(elem.elems)
            else:
                self.body.err(target, "type-error", f"cannot unpack {T.show(elem)} into {len(target.elts)} names")
                return None
            elts = []
            for sub, t in zip(target.elts, parts, strict=True):
                r = self.bind_target(sub, t, info)
                if r is None:
                    return None
                elts.append(r)
            return ir.TupleTarget(tuple(elts))
        self.body.err(target, "unsupported-statement", "loop target other than names")
        return None
