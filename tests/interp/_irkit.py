"""Test-only builder of checked programs: a tiny Python-AST → IR translator for the pure subset.

It stands in for the real checker in interpreter tests (types are approximate: the interpreter only
reads ``TRowClass`` and call-site result types). It reads test sources, never agent programs.
"""

from __future__ import annotations

import ast
import hashlib
from typing import Any

from clauz3.language import ir
from clauz3.vocabulary.rows import Row

OBJ = ir.OBJECT
STR_METHODS = {"startswith", "endswith", "find", "join", "split", "strip", "lstrip", "rstrip", "lower", "upper",
               "replace"}
LIST_METHODS = {"append", "extend"}
DICT_METHODS = {"get", "keys", "values", "items"}
BUILTINS = {"len", "abs", "bool", "float", "ord", "chr", "min", "max", "sum", "int", "str", "list", "set", "dict",
            "tuple", "range", "enumerate", "print"}
OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
       ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
CMPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
        ast.NotIn: "not_in", ast.Is: "is", ast.IsNot: "is_not"}


class UserRow(Row):
    name: str
    email: str
    consented: bool


class ApprovalRow(Row):
    stock: str
    shares: int


def scalar_type(v: Any) -> ir.Type:
    return {bool: ir.BOOL, int: ir.INT, float: ir.FLOAT, str: ir.STR, type(None): ir.NONE}.get(type(v), OBJ)


def const(v: Any, line: int = 1) -> ir.Const:
    return ir.Const(v, scalar_type(v), line, 0)


def column(schema: str, field: str) -> ir.Const:
    return ir.Const((schema, field), OBJ, 1, 0, kind="column")


def rec(param: str, field: str) -> ir.FieldGet:
    return ir.FieldGet(ir.RecordVar(param, 1, 0), field, OBJ, 1, 0)


def pred(body: ir.Expr, param: str = "e") -> ir.Pred:
    return ir.Pred(param, body, "<pred>", "contracts.py", 1)


def cmp(left: ir.Expr, op: str, right: ir.Expr) -> ir.Compare:
    return ir.Compare(left, (op,), (right,), ir.BOOL, 1, 0)


def relation(*targets: str, event: str | None = None, filters: tuple[ir.Pred, ...] = ()) -> ir.Relation:
    return ir.Relation(tuple(targets), event, filters, ())


def guarantee(spec: Any, bound: str, cls: str = "safety") -> ir.Guarantee:
    return ir.Guarantee("guarantee", bound, bound, "h", "lib", (), None, spec, cls, 1, 1)


def effect(name: str, params: list[tuple[str, ir.Type]] | list[ir.Param], returns: ir.Type = ir.NONE, *,
           requires: tuple[ir.Condition, ...] = (), ensures: tuple[ir.Condition, ...] = (),
           performs: tuple[ir.PerformedEvent, ...] = (), fluent_updates: tuple[ir.FluentUpdate, ...] = (),
           row_param: str | None = None) -> ir.Effect:
    ps = tuple(p if isinstance(p, ir.Param) else ir.Param(p[0], p[1]) for p in params)
    return ir.Effect(name, name.rsplit(".", 1)[-1], ps, returns, requires, ensures, False, performs, fluent_updates,
                     "effects.py", 1, row_param)


def condition(source: str, names: dict[str, str] | None = None) -> ir.Condition:
    """A condition compiled from ``source`` (an expression over parameter names)."""
    tr = Translator({}, {})
    expr = tr.expr(ast.parse(source, mode="eval").body)
    return ir.Condition(expr, source, f"condition {source}", "PreconditionError", "effects.py", 1)


class Translator:
    def __init__(self, effects: dict[str, ir.Effect], rows: dict[str, ir.RowSchema],
                 effect_types: dict[str, ir.Type] | None = None) -> None:
        self.effects = effects  # short name -> Effect
        self.rows = rows
        self.effect_types = effect_types or {}
        self.functions: dict[str, ast.FunctionDef] = {}
        self.sites = 0
        self.kinds: dict[str, str] = {}

    def receiver(self, obj: ast.expr, method: str) -> str:
        if method in STR_METHODS:
            return "str"
        if method in LIST_METHODS:
            return "list"
        if method == "add":
            return "set"
        if method in DICT_METHODS:
            return "dict"
        if isinstance(obj, ast.Name) and self.kinds.get(obj.id):
            return self.kinds[obj.id]
        if isinstance(obj, (ast.List, ast.ListComp)):
            return "list"
        return "str"

    def expr(self, node: ast.expr) -> ir.Expr:
        ln, co = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        if isinstance(node, ast.Constant):
            return ir.Const(node.value, scalar_type(node.value), ln, co)
        if isinstance(node, ast.Name):
            if node.id in self.rows:
                return ir.Const(self.rows[node.id].name, ir.TRowClass(self.rows[node.id].name), ln, co, "rowclass")
            return ir.Name(node.id, OBJ, ln, co)
        if isinstance(node, ast.List):
            return ir.ListExpr(tuple(self.expr(e) for e in node.elts), OBJ, ln, co)
        if isinstance(node, ast.Tuple):
            return ir.TupleExpr(tuple(self.expr(e) for e in node.elts), OBJ, ln, co)
        if isinstance(node, ast.Set):
            return ir.SetExpr(tuple(self.expr(e) for e in node.elts), OBJ, ln, co)
        if isinstance(node, ast.Dict):
            return ir.DictExpr(tuple(self.expr(k) for k in node.keys), tuple(self.expr(v) for v in node.values),
                               OBJ, ln, co)
        if isinstance(node, ast.ListComp):
            gen = node.generators[0]
            return ir.ListComp(self.expr(node.elt), self.target(gen.target), self.expr(gen.iter),
                               tuple(self.expr(c) for c in gen.ifs), OBJ, ln, co)
        if isinstance(node, ast.BinOp):
            return ir.BinOp(OPS[type(node.op)], self.expr(node.left), self.expr(node.right), OBJ, ln, co)
        if isinstance(node, ast.UnaryOp):
            op = {ast.Not: "not", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
            return ir.UnaryOp(op, self.expr(node.operand), OBJ, ln, co)
        if isinstance(node, ast.BoolOp):
            op = "and" if isinstance(node.op, ast.And) else "or"
            return ir.BoolOp(op, tuple(self.expr(v) for v in node.values), OBJ, ln, co)
        if isinstance(node, ast.Compare):
            return ir.Compare(self.expr(node.left), tuple(CMPS[type(o)] for o in node.ops),
                              tuple(self.expr(c) for c in node.comparators), ir.BOOL, ln, co)
        if isinstance(node, ast.IfExp):
            return ir.IfExp(self.expr(node.test), self.expr(node.body), self.expr(node.orelse), OBJ, ln, co)
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Slice):
                s = node.slice
                return ir.Slice(self.expr(node.value), s.lower and self.expr(s.lower),
                                s.upper and self.expr(s.upper), OBJ, ln, co)
            return ir.Subscript(self.expr(node.value), self.expr(node.slice), OBJ, ln, co)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "math":
                return ir.Const({"inf": float("inf"), "pi": 3.141592653589793}[node.attr], ir.FLOAT, ln, co)
            return ir.FieldGet(self.expr(node.value), node.attr, OBJ, ln, co)
        if isinstance(node, ast.JoinedStr):
            parts: list[Any] = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(v.value)
                else:
                    assert isinstance(v, ast.FormattedValue)
                    parts.append(self.expr(v.value))
            return ir.FString(tuple(parts), ir.STR, ln, co)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise NotImplementedError(ast.dump(node))

    def call(self, node: ast.Call) -> ir.Expr:
        ln, co = node.lineno, node.col_offset
        args = tuple(self.expr(a) for a in node.args)
        kwargs = tuple((k.arg or "", self.expr(k.value)) for k in node.keywords)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math":
            return ir.BuiltinCall(f"math.{f.attr}", args, kwargs, OBJ, ln, co)
        if isinstance(f, ast.Attribute):
            recv = self.receiver(f.value, f.attr)
            return ir.MethodCall(recv, f.attr, self.expr(f.value), args, OBJ, ln, co)
        assert isinstance(f, ast.Name)
        if f.id in self.effects:
            eff = self.effects[f.id]
            bound: dict[str, ir.Expr] = {}
            for p, a in zip(eff.params, args, strict=False):
                bound[p.name] = a
            bound.update(dict(kwargs))
            ordered = tuple((p.name, bound[p.name]) for p in eff.params if p.name in bound)
            omitted = tuple(p.name for p in eff.params if p.name not in bound)
            self.sites += 1
            rtype = self.effect_types.get(f.id, eff.returns)
            return ir.EffectCall(eff.name, ordered, omitted, rtype, ln, co, self.sites, ast.unparse(node), "main.py")
        if f.id in self.functions:
            fd = self.functions[f.id]
            names = [a.arg for a in fd.args.args]
            defaults = fd.args.defaults
            values: dict[str, ir.Expr] = dict(zip(names, args, strict=False))
            values.update(dict(kwargs))
            for name, d in zip(names[len(names) - len(defaults):], defaults, strict=True):
                values.setdefault(name, self.expr(d))
            return ir.HelperCall(f.id, tuple(values[n] for n in names), OBJ, ln, co)
        assert f.id in BUILTINS, f.id
        return ir.BuiltinCall(f.id, args, kwargs, OBJ, ln, co)

    def target(self, node: ast.expr) -> ir.Target:
        if isinstance(node, ast.Name):
            return ir.NameTarget(node.id, OBJ)
        assert isinstance(node, (ast.Tuple, ast.List))
        return ir.TupleTarget(tuple(self.target(e) for e in node.elts))

    def stmt(self, node: ast.stmt) -> ir.Stmt:
        ln, co = node.lineno, node.col_offset
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            tgt = node.targets[0] if isinstance(node, ast.Assign) else node.target
            assert node.value is not None
            if isinstance(tgt, ast.Subscript):
                assert isinstance(tgt.value, ast.Name)
                return ir.SetItem(tgt.value.id, self.expr(tgt.slice), self.expr(node.value), ln, co)
            if isinstance(tgt, ast.Name):
                v = node.value
                if isinstance(v, (ast.List, ast.ListComp)) or (isinstance(v, ast.Call) and getattr(v.func, "id", "") == "list"):
                    self.kinds[tgt.id] = "list"
                elif isinstance(v, ast.Dict):
                    self.kinds[tgt.id] = "dict"
                elif isinstance(v, ast.Set):
                    self.kinds[tgt.id] = "set"
            return ir.Assign(self.target(tgt), self.expr(node.value), ln, co)
        if isinstance(node, ast.AugAssign):
            assert isinstance(node.target, ast.Name)
            return ir.AugAssign(node.target.id, OPS[type(node.op)] + "=", self.expr(node.value), OBJ, ln, co)
        if isinstance(node, ast.Expr):
            return ir.ExprStmt(self.expr(node.value), ln, co)
        if isinstance(node, ast.Return):
            return ir.Return(node.value and self.expr(node.value), ln, co)
        if isinstance(node, ast.If):
            return ir.If(self.expr(node.test), self.block(node.body), self.block(node.orelse), ln, co)
        if isinstance(node, ast.For):
            return ir.For(self.target(node.target), self.expr(node.iter), self.block(node.body), "unrolled", ln, co)
        if isinstance(node, ast.Break):
            return ir.Break(ln, co)
        if isinstance(node, ast.Continue):
            return ir.Continue(ln, co)
        if isinstance(node, ast.Assert):
            return ir.Assert(self.expr(node.test), node.msg and self.expr(node.msg), ln, co)
        if isinstance(node, ast.Raise):
            exc = node.exc
            if isinstance(exc, ast.Call):
                assert isinstance(exc.func, ast.Name)
                return ir.Raise(exc.func.id, tuple(self.expr(a) for a in exc.args), ln, co)
            assert isinstance(exc, ast.Name)
            return ir.Raise(exc.id, (), ln, co)
        if isinstance(node, ast.Pass):
            return ir.Pass(ln, co)
        raise NotImplementedError(ast.dump(node))

    def block(self, body: list[ast.stmt]) -> tuple[ir.Stmt, ...]:
        return tuple(self.stmt(s) for s in body)

    def function(self, fd: ast.FunctionDef, file: str) -> ir.Function:
        defaults = fd.args.defaults
        names = [a.arg for a in fd.args.args]
        params = []
        for i, name in enumerate(names):
            j = i - (len(names) - len(defaults))
            default = None
            if j >= 0:
                d = defaults[j]
                assert isinstance(d, ast.Constant)
                default = const(d.value)
            params.append(ir.Param(name, OBJ, default=default))
        return ir.Function(fd.name, tuple(params), self.block(fd.body), OBJ, True, "entry", "__entry__", file,
                           fd.lineno)


def build(source: str, *, effects: list[ir.Effect] = (), guarantees: tuple[ir.Guarantee, ...] = (),
          rows: tuple[ir.RowSchema, ...] = (), effect_types: dict[str, ir.Type] | None = None,
          events: tuple[ir.EventClass, ...] = (), fluents: tuple[ir.Fluent, ...] = (),
          path: str = "main.py", target: str = "main") -> ir.CheckedProgram:
    tree = ast.parse(source)
    by_short = {e.short: e for e in effects}
    row_map = {r.short: r for r in rows}
    tr = Translator(by_short, row_map, effect_types)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    for d in defs:
        tr.functions[d.name] = d
    functions = {d.name: tr.function(d, path) for d in defs}
    return ir.CheckedProgram(
        path=path, source_sha256=hashlib.sha256(source.encode()).hexdigest(), target=target, functions=functions,
        effects={e.name: e for e in effects}, rows={r.name: r for r in rows}, events={e.name: e for e in events},
        fluents={f.name: f for f in fluents}, guarantees=tuple(guarantees), coverage=(), used_domains=(),
        layer_sha256="0" * 64,
    )


USER_ROW = ir.RowSchema("_irkit.UserRow", "UserRow",
                        (("name", ir.STR), ("email", ir.STR), ("consented", ir.BOOL)))
APPROVAL_ROW = ir.RowSchema("_irkit.ApprovalRow", "ApprovalRow", (("stock", ir.STR), ("shares", ir.INT)))
