"""Typed compilation of EXP-1 expressions into IR (01 §3.4, TYP-1).

:class:`ExprCompiler` holds the two parts that compile what an expression may contain besides
expressions: calls (:class:`clauz3.language.calls.CallCompiler`) and the loop head of a
comprehension (:class:`clauz3.language.iteration.Iteration`, which ``for`` statements use too);
all of them share the function's :class:`clauz3.language.body.Body`. Statements are compiled by
:mod:`clauz3.language.statements`. Narrowing of ``T | None`` by ``is None`` / ``is not None`` /
truthiness tests is done on the environment: inside the narrowed branch the :class:`ir.Name`
carries the narrowed type (there is no separate IR node).
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import (
    BConst,
    Binding,
    BModule,
    BOther,
    BRowClass,
)
from clauz3.language.body import Body, copy_env
from clauz3.language.calls import CallCompiler
from clauz3.language.iteration import Iteration

BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
          ast.RShift: ">>", ast.MatMult: "@"}
CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
          ast.In: "in", ast.NotIn: "not_in", ast.Is: "is", ast.IsNot: "is_not"}
UNOPS = {ast.Not: "not", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
# The largest constant exponent of `int ** n` and shift of `x << n`: 7 ** 100_000 is 280,000 bits,
# quick to build; 7 ** 10**12 cannot be built at all.
MAX_INT_EXPONENT = 100_000

REFUSED_EXPR = {
    ast.Lambda: "lambda", ast.GeneratorExp: "generator expression", ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension", ast.NamedExpr: "`:=` assignment expression",
    ast.Starred: "starred expression", ast.Await: "`await`", ast.Yield: "`yield`",
    ast.YieldFrom: "`yield from`",
}


class ExprCompiler:
    """Compiles one function body's expressions; ``body.env`` holds its local names."""

    def __init__(self, body: Body) -> None:
        self.body = body
        self.calls = CallCompiler(body, self)
        self.iteration = Iteration(body, self)

    # ------------------------------------------------------------------------ dispatch

    def expr(self, node: ast.expr) -> Any:
        for cls, what in REFUSED_EXPR.items():
            if isinstance(node, cls):
                return self.body.err(node, "unsupported-expression", f"{what}", self._refused_hint(node))
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            return self.body.err(node, "unsupported-expression", f"`{type(node).__name__}` expression")
        return method(node)

    def _refused_hint(self, node: ast.AST) -> str | None:
        if isinstance(node, (ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            return "use a list comprehension or a for loop"
        if isinstance(node, ast.Lambda):
            return "define a module-level function"
        return None

    def x_Constant(self, node: ast.Constant) -> Any:
        line, col = self.body.loc(node)
        v = node.value
        if isinstance(v, bytes):
            return self.body.err(node, "unsupported-expression", "bytes literal")
        if v is Ellipsis or isinstance(v, complex):
            return self.body.err(node, "unsupported-expression", f"literal `{self.body.seg(node)}`")
        return ir.Const(v, T.const_type(v), line, col)

    def x_Name(self, node: ast.Name) -> Any:
        line, col = self.body.loc(node)
        var = self.body.env.get(node.id)
        if var is not None:
            if var.state == "maybe":
                return self.body.err(node, "unbound-name", f"name `{node.id}` is not bound on every path",
                                     "assign it before every branch or loop that may skip it")
            if var.state == "conflict":
                return self.body.err(node, "type-error",
                                     f"name `{node.id}` is {T.show(var.type)} on one path and {T.show(var.other)} "
                                     f"on another")
            return ir.Name(node.id, var.type, line, col)
        if node.id in self.body.locals:
            return self.body.err(node, "unbound-name", f"name `{node.id}` is used before it is bound")
        b = self.body.scope.lookup(node.id, line, col)
        return self.binding_value(node, node.id, b)

    def binding_value(self, node: ast.AST, name: str, b: Binding | None) -> Any:
        line, col = self.body.loc(node)
        if b is None:
            return self.body.err(node, "unbound-name", f"name `{name}` is not defined")
        if isinstance(b, BConst):
            return b.const
        if isinstance(b, BRowClass):
            return ir.Const(b.key, ir.TRowClass(b.key), line, col, "rowclass")
        if isinstance(b, BModule):
            return self.body.err(node, "unsupported-expression", f"module `{name}` used as a value")
        if isinstance(b, BOther) and not b.what.startswith(("function", "effect", "`")):
            return self.body.err(node, "unsupported-expression", f"{b.what} used as a value")
        return self.body.err(node, "unsupported-expression", f"function `{name}` used as a value",
                             "call it directly")

    def x_Attribute(self, node: ast.Attribute) -> Any:
        line, col = self.body.loc(node)
        if node.attr.startswith("__") and node.attr.endswith("__"):
            return self.body.err(node, "unsupported-expression", f"dunder attribute `{self.body.seg(node)}`")
        base = self.module_binding(node.value)
        if base is not None:
            b = self.body.scope.attr(base, node.attr, line, col)
            if b is None:
                return self.body.err(node, "unsupported-expression", f"unknown attribute `{self.body.seg(node)}`")
            return self.binding_value(node, self.body.seg(node), b)
        value = self.expr(node.value)
        if T.is_err(t := value.type):
            return value
        if node.attr == "value" and isinstance(value, ir.Const) and value.kind in ("filepath", "dirpath"):
            return ir.Const(value.value, ir.STR, line, col)  # FilePath("…").value: its canonical text (issue 23)
        if isinstance(t, ir.TRow):
            schema = self.body.ctx.rows.get(t.schema)
            fields = dict(schema.fields) if schema else {}
            if node.attr not in fields:
                return self.body.err(node, "type-error", f"row {T.show(t)} has no field `{node.attr}`")
            return ir.FieldGet(value, node.attr, fields[node.attr], line, col)
        return self.body.err(node, "unsupported-expression",
                             f"attribute `{self.body.seg(node)}` on {T.show(t)}",
                             "only row fields and the listed methods (called) are available")

    def module_binding(self, node: ast.expr) -> Binding | None:
        """The module a dotted expression names (``clauz3``, ``m.sub``), else None."""
        if isinstance(node, ast.Name):
            if node.id in self.body.env or node.id in self.body.locals:
                return None
            b = self.body.scope.lookup(node.id, node.lineno, node.col_offset + 1)
            return b if isinstance(b, BModule) else None
        if isinstance(node, ast.Attribute):
            base = self.module_binding(node.value)
            if base is None:
                return None
            b = self.body.scope.attr(base, node.attr, node.lineno, node.col_offset + 1)
            return b if isinstance(b, BModule) else None
        return None

    def x_Call(self, node: ast.Call) -> Any:
        return self.calls.call(node)

    # ------------------------------------------------------------------------ operators

    def x_BinOp(self, node: ast.BinOp) -> Any:
        line, col = self.body.loc(node)
        op = BINOPS.get(type(node.op), "?")
        if op == "@":
            return self.body.err(node, "unsupported-expression", "`@` operator")
        if (op == "%" and isinstance(node.left, (ast.Constant, ast.JoinedStr)) and isinstance(
                getattr(node.left, "value", None), str)) or (op == "%" and isinstance(node.left, ast.JoinedStr)):
            return self.body.err(node, "unsupported-expression", "`%`-formatting", "use an f-string")
        left, right = self.expr(node.left), self.expr(node.right)
        if T.is_err(left.type, right.type):
            return ir.BinOp(op, left, right, T.ERR, line, col)
        if op == "%" and left.type == ir.STR:
            return self.body.err(node, "unsupported-expression", "`%`-formatting", "use an f-string")
        t = self.binop_type(op, left, right)
        if t is None and op == "**" and T.is_intlike(left.type) and T.is_intlike(right.type):
            # int ** int is an int for an exponent >= 0 and a float below: one static type needs a
            # constant exponent (or a float operand).
            return self.body.err(node, "type-error", "`**` of ints needs a constant exponent >= 0",
                                 "write float(x) ** n for a float result")
        if t is None:
            return self.body.err(node, "type-error",
                                 f"unsupported operand types for `{op}`: {T.show(left.type)} and {T.show(right.type)}")
        if t == ir.INT and op in ("**", "<<") and isinstance(right, ir.Const) and type(right.value) is int \
                and right.value > MAX_INT_EXPONENT:
            # The int could not be built (a MemoryError or a hang, after effects ran); the prover would
            # build 2 ** n itself for a shift. Refusing is the one sound answer.
            return self.body.err(node, "limit-exceeded", f"`{op} {right.value}` builds an int too large to compute",
                                 f"keep the right operand of `{op}` at most {MAX_INT_EXPONENT:,}")
        return ir.BinOp(op, left, right, t, line, col, self.body.seg(node))

    def binop_type(self, op: str, left: Any, right: Any) -> Any | None:
        lt, rt = left.type, right.type
        num = T.is_numeric(lt) and T.is_numeric(rt)
        if op == "+":
            if num:
                return T.numeric_join(lt, rt) if T.numeric_join(lt, rt) != ir.BOOL else ir.INT
            if lt == ir.STR and rt == ir.STR:
                return ir.STR
            if isinstance(lt, ir.TList) and isinstance(rt, ir.TList):
                e = T.join_elem(lt.elem, rt.elem)
                return None if e is None else ir.TList(e)
            if isinstance(lt, ir.TTuple) and isinstance(rt, ir.TTuple):
                if lt.elems is not None and rt.elems is not None:
                    return ir.TTuple(elems=lt.elems + rt.elems)
                e = T.join_elem(T.elem_type(lt), T.elem_type(rt))
                return None if e is None else ir.TTuple(elem=e)
            return None
        if op == "*":
            if num:
                j = T.numeric_join(lt, rt)
                return ir.INT if j == ir.BOOL else j
            for a, b in ((lt, rt), (rt, lt)):
                if T.is_intlike(b) and (a == ir.STR or isinstance(a, ir.TList)):
                    return a
            return None
        if op in ("-", "//", "%"):
            if not num:
                return None
            j = T.numeric_join(lt, rt)
            return ir.INT if j == ir.BOOL else j
        if op == "/":
            return ir.FLOAT if num else None
        if op == "**":
            if not num:
                return None
            if lt == ir.FLOAT or rt == ir.FLOAT:
                return ir.FLOAT
            if isinstance(right, ir.Const) and isinstance(right.value, int) and right.value >= 0:
                return ir.INT
            return None  # `x ** -n` is a float for n > 0 but an int for n <= 0: no one static type
        if op in ("&", "|", "^"):
            if lt == ir.BOOL and rt == ir.BOOL:
                return ir.BOOL
            return ir.INT if T.is_intlike(lt) and T.is_intlike(rt) else None
        if op in ("<<", ">>"):
            return ir.INT if T.is_intlike(lt) and T.is_intlike(rt) else None
        return None

    def x_UnaryOp(self, node: ast.UnaryOp) -> Any:
        line, col = self.body.loc(node)
        op = UNOPS[type(node.op)]
        operand = self.expr(node.operand)
        t = operand.type
        if T.is_err(t):
            return ir.UnaryOp(op, operand, T.ERR, line, col)
        if op == "not":
            return ir.UnaryOp(op, operand, ir.BOOL, line, col)
        if op in ("-", "+") and T.is_numeric(t):
            if isinstance(operand, ir.Const) and op == "-" and operand.kind == "scalar" \
                    and not isinstance(operand.value, bool):
                return ir.Const(-operand.value, t, line, col)
            return ir.UnaryOp(op, operand, ir.INT if t == ir.BOOL else t, line, col)
        if op == "~" and T.is_intlike(t):
            return ir.UnaryOp(op, operand, ir.INT, line, col)
        return self.body.err(node, "type-error", f"bad operand type for unary `{op}`: {T.show(t)}")

    def x_BoolOp(self, node: ast.BoolOp) -> Any:
        line, col = self.body.loc(node)
        op = "and" if isinstance(node.op, ast.And) else "or"
        saved = self.body.env
        self.body.env = copy_env(saved)
        values = []
        for i, v in enumerate(node.values):
            values.append(self.expr(v))
            if i < len(node.values) - 1:
                t_upd, f_upd = self.narrowing(v)
                self.apply(t_upd if op == "and" else f_upd)
        self.body.env = saved
        types = [x.type for x in values]
        if T.is_err(*types):
            return ir.BoolOp(op, tuple(values), T.ERR, line, col)
        if op == "or":
            types = [T.strip_optional(t) for t in types[:-1]] + [types[-1]]
        out = types[0]
        for t in types[1:]:
            j = T.join(out, t)
            if j is None:
                return self.body.err(node, "type-error",
                                     f"operands of `{op}` have types {T.show(out)} and {T.show(t)}")
            out = j
        return ir.BoolOp(op, tuple(values), out, line, col)

    def x_Compare(self, node: ast.Compare) -> Any:
        line, col = self.body.loc(node)
        ops = [CMPOPS[type(o)] for o in node.ops]
        for o, comp, prev in zip(ops, node.comparators, [node.left, *node.comparators], strict=False):
            if o in ("is", "is_not") and not (_is_none(comp) or _is_none(prev)):
                return self.body.err(node, "unsupported-expression", "`is` with a value other than None",
                                     "use == to compare values")
        left = self.expr(node.left)
        comps = [self.expr(c) for c in node.comparators]
        operands = [left, *comps]
        for i, o in enumerate(ops):
            a, b = operands[i], operands[i + 1]
            if T.is_err(a.type, b.type):
                return ir.Compare(left, tuple(ops), tuple(comps), T.ERR, line, col)
            problem = self.compare_problem(o, a.type, b.type)
            if problem:
                return self.body.err(node, "type-error", problem)
        return ir.Compare(left, tuple(ops), tuple(comps), ir.BOOL, line, col)

    def compare_problem(self, op: str, a: Any, b: Any) -> str | None:
        if op in ("==", "!=", "is", "is_not"):
            return None
        if op in ("in", "not_in"):
            if b == ir.STR:
                return None if a == ir.STR else f"`in <str>` requires a str on the left, got {T.show(a)}"
            if isinstance(b, (ir.TDict, ir.TSet)) and T.surely_unhashable(a):  # CPython hashes it first
                return f"unhashable value of type {T.show(a)} tested with `in` a set or dict (a TypeError when run)"
            if isinstance(b, ir.TDict):
                return None
            if isinstance(b, (ir.TList, ir.TSet, ir.TTuple)):
                return None
            return f"`in` needs a container on the right, got {T.show(b)}"
        if T.orderable(a, b):
            return None
        if isinstance(a, ir.TSet) and isinstance(b, ir.TSet):
            return (f"`{op}` between sets: in Python a subset test, and clauz3's sets have no order "
                    "(a TypeError when run)")
        return f"`{op}` not supported between {T.show(a)} and {T.show(b)} (a TypeError when run)"

    def x_IfExp(self, node: ast.IfExp) -> Any:
        line, col = self.body.loc(node)
        test = self.expr(node.test)
        t_upd, f_upd = self.narrowing(node.test)
        saved = self.body.env
        self.body.env = copy_env(saved)
        self.apply(t_upd)
        body = self.expr(node.body)
        self.body.env = copy_env(saved)
        self.apply(f_upd)
        orelse = self.expr(node.orelse)
        self.body.env = saved
        if T.is_err(body.type, orelse.type):
            return ir.IfExp(test, body, orelse, T.ERR, line, col)
        t = T.join(body.type, orelse.type)
        if t is None:
            return self.body.err(node, "type-error",
                                 f"branches of the conditional expression have types {T.show(body.type)} and "
                                 f"{T.show(orelse.type)}")
        return ir.IfExp(test, body, orelse, t, line, col)

    # ------------------------------------------------------------------------ narrowing

    def narrowing(self, node: ast.expr) -> tuple[dict[str, Any], dict[str, Any]]:
        """Type updates that hold when ``node`` is true / false (Optional narrowing)."""
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Name) \
                and _is_none(node.comparators[0]) and isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.Eq,
                                                                                ast.NotEq)):
            var = self.body.env.get(node.left.id)
            if var is None or not isinstance(var.type, ir.TOptional):
                return {}, {}
            none_side, inner_side = {node.left.id: ir.NONE}, {node.left.id: var.type.inner}
            if isinstance(node.ops[0], (ast.Is, ast.Eq)):
                return none_side, inner_side
            return inner_side, none_side
        if isinstance(node, ast.Name):
            var = self.body.env.get(node.id)
            if var is not None and isinstance(var.type, ir.TOptional):
                return {node.id: var.type.inner}, {}
            return {}, {}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            t, f = self.narrowing(node.operand)
            return f, t
        if isinstance(node, ast.BoolOp):
            parts = [self.narrowing(v) for v in node.values]
            if isinstance(node.op, ast.And):
                merged: dict[str, Any] = {}
                for t, _ in parts:
                    merged.update(t)
                return merged, {}
            merged = {}
            for _, f in parts:
                merged.update(f)
            return {}, merged
        return {}, {}

    def apply(self, updates: dict[str, Any]) -> None:
        for name, t in updates.items():
            if name in self.body.env:
                self.body.env[name] = replace(self.body.env[name], type=t)

    # ------------------------------------------------------------------------ containers

    def x_List(self, node: ast.List) -> Any:
        line, col = self.body.loc(node)
        elts = [self.stored(e) for e in node.elts]
        return ir.ListExpr(tuple(elts), ir.TList(self.elem_of(node, elts)), line, col)

    def x_Tuple(self, node: ast.Tuple) -> Any:
        line, col = self.body.loc(node)
        elts = [self.stored(e) for e in node.elts]
        t = T.ERR if T.is_err(*[e.type for e in elts]) else ir.TTuple(elems=tuple(e.type for e in elts))
        return ir.TupleExpr(tuple(elts), t, line, col)

    def x_Set(self, node: ast.Set) -> Any:
        line, col = self.body.loc(node)
        elts = [self.stored(e) for e in node.elts]
        for e in elts:
            if T.unhashable(e.type):
                return self.body.err(node, "type-error", f"unhashable element of type {T.show(e.type)} in a set")
        return ir.SetExpr(tuple(elts), ir.TSet(self.elem_of(node, elts)), line, col)

    def x_Dict(self, node: ast.Dict) -> Any:
        line, col = self.body.loc(node)
        if any(k is None for k in node.keys):
            return self.body.err(node, "unsupported-expression", "`**` unpacking in a dict display")
        keys = [self.stored(k) for k in node.keys if k is not None]
        values = [self.stored(v) for v in node.values]
        for k in keys:
            if T.unhashable(k.type):
                return self.body.err(node, "type-error", f"unhashable dict key of type {T.show(k.type)}")
        kt, vt = self.elem_of(node, keys), self.elem_of(node, values)
        return ir.DictExpr(tuple(keys), tuple(values), ir.TDict(kt, vt), line, col)

    def stored(self, node: ast.expr) -> Any:
        """An element stored in a new collection: the stored local loses unique ownership."""
        e = self.expr(node)
        self.body.release(node)
        return e

    def elem_of(self, node: ast.AST, elts: list[Any]) -> Any:
        types = [e.type for e in elts]
        if T.is_err(*types):
            return T.ERR
        return T.join_all(types)

    def x_Subscript(self, node: ast.Subscript) -> Any:
        line, col = self.body.loc(node)
        if isinstance(node.slice, ast.Slice):
            return self.slice(node)
        value = self.expr(node.value)
        index = self.expr(node.slice)
        vt, it = value.type, index.type
        if T.is_err(vt, it):
            return ir.Subscript(value, index, T.ERR, line, col, self.body.seg(node))
        if isinstance(value, ir.MethodCall) and value.receiver == "dict" and value.method in (
                "keys", "values", "items"):
            return self.body.err(node, "type-error", f"`dict.{value.method}()` is a view and cannot be indexed")
        if isinstance(vt, ir.TDict):
            if not T.assignable(it, vt.key) and not T.assignable(vt.key, it):
                return self.body.err(node, "type-error", f"dict key must be {T.show(vt.key)}, got {T.show(it)}")
            return ir.Subscript(value, index, vt.value, line, col, self.body.seg(node))
        if not T.is_intlike(it):
            return self.body.err(node, "type-error", f"index must be int, got {T.show(it)}")
        if vt == ir.STR:
            t: Any = ir.STR
        elif isinstance(vt, ir.TList):
            t = vt.elem
        elif isinstance(vt, ir.TTuple):
            if vt.elems is not None:
                if isinstance(index, ir.Const) and isinstance(index.value, int) and \
                        -len(vt.elems) <= index.value < len(vt.elems):
                    t = vt.elems[index.value]
                else:
                    t = T.join_all(list(vt.elems)) if vt.elems else ir.OBJECT
            else:
                t = vt.elem
        else:
            return self.body.err(node, "type-error", f"{T.show(vt)} cannot be indexed")
        return ir.Subscript(value, index, t, line, col, self.body.seg(node))

    def slice(self, node: ast.Subscript) -> Any:
        line, col = self.body.loc(node)
        sl = node.slice
        assert isinstance(sl, ast.Slice)
        if sl.step is not None and not (isinstance(sl.step, ast.Constant) and sl.step.value == 1
                                        and type(sl.step.value) is int):
            return self.body.err(node, "unsupported-expression", "slice with a step", "slice without a step")
        value = self.expr(node.value)
        lower = self.expr(sl.lower) if sl.lower is not None else None
        upper = self.expr(sl.upper) if sl.upper is not None else None
        for b in (lower, upper):
            if b is not None and not T.is_err(b.type) and not T.is_intlike(b.type) and b.type != ir.NONE:
                return self.body.err(node, "type-error", f"slice bounds must be int, got {T.show(b.type)}")
        vt = value.type
        if T.is_err(vt):
            return ir.Slice(value, lower, upper, T.ERR, line, col)
        if vt == ir.STR or isinstance(vt, ir.TList):
            return ir.Slice(value, lower, upper, vt, line, col)
        if isinstance(vt, ir.TTuple):
            e = T.elem_type(vt)
            return ir.Slice(value, lower, upper, ir.TTuple(elem=e), line, col)
        return self.body.err(node, "type-error", f"{T.show(vt)} cannot be sliced")

    def x_JoinedStr(self, node: ast.JoinedStr) -> Any:
        line, col = self.body.loc(node)
        parts: list[Any] = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
                continue
            assert isinstance(v, ast.FormattedValue)
            if v.conversion != -1:
                return self.body.err(v, "unsupported-expression", "conversion (`!r`, `!s`, `!a`) in an f-string")
            spec = None
            if v.format_spec is not None:
                from clauz3.language.formatspec import HINT

                pieces = v.format_spec.values if isinstance(v.format_spec, ast.JoinedStr) else []
                if not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in pieces):
                    return self.body.err(v, "unsupported-expression", "a computed format spec in an f-string", HINT)
                spec = "".join(p.value for p in pieces)  # type: ignore[attr-defined]  # every piece is a str Constant (tested above)
            e = self.expr(v.value)
            if spec is not None and not T.is_err(e.type):
                from clauz3.language.formatspec import HINT, spec_problem

                problem = spec_problem(spec, e.type)
                if problem:
                    return self.body.err(v, "unsupported-expression", problem, HINT)
                parts.append(ir.Formatted(e, spec, ir.STR, *self.body.loc(v)))
                continue
            # float fields print CPython's repr, which the prover computes exactly for known floats.
            if not T.is_err(e.type) and e.type not in (ir.STR, ir.INT, ir.BOOL, ir.FLOAT):
                return self.body.err(v, "type-error", f"f-string field must be str, int, float or bool, got "
                                     f"{T.show(e.type)}", "convert the value with str(...) first")
            parts.append(e)
        return ir.FString(tuple(parts), ir.STR, line, col)

    def x_ListComp(self, node: ast.ListComp) -> Any:
        line, col = self.body.loc(node)
        if len(node.generators) != 1 or node.generators[0].is_async:
            return self.body.err(node, "unsupported-expression", "nested or multi-generator comprehension",
                                 "use a for loop")
        gen = node.generators[0]
        saved = self.body.env
        self.body.env = copy_env(saved)
        it = self.iteration.iterable(gen.iter, comprehension=True)
        target = self.iteration.bind_target(gen.target, it[1], it[2])
        conds = tuple(self.expr(c) for c in gen.ifs)
        for c in gen.ifs:
            self.apply(self.narrowing(c)[0])
        elt = self.expr(node.elt)
        self.body.env = saved
        if T.is_err(elt.type):
            return ir.ListComp(elt, target, it[0], conds, T.ERR, line, col)  # type: ignore[arg-type]  # target is None only after an error: the program is refused
        return ir.ListComp(elt, target, it[0], conds, ir.TList(elt.type), line, col)  # type: ignore[arg-type]  # target is None only after an error: the program is refused


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
