"""Relation lambdas (PRED-1…3) compiled from source into :class:`ir.Pred`; never called as Python.

Captured names (closure cells, then the lambda's globals) become :class:`ir.Const`: scalars,
``None``, literal collections, typed paths (as str, kind ``filepath``/``dirpath``) and
``ColumnRef`` (kind ``column``, value ``(schema key, field)``). The four path predicates become
:class:`ir.HelperCall` to ``clauz3.vocabulary.path_safety.<name>``.
"""

from __future__ import annotations

import ast
import builtins
from typing import TYPE_CHECKING, Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import PATH_PREDICATES, literal_const
from clauz3.language.errors import LanguageError

if TYPE_CHECKING:
    from clauz3.language.context import ProgramContext

CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
       ast.In: "in", ast.NotIn: "not_in"}


class PredError(LanguageError):
    """A lambda outside PRED-1 (reported as ``contract-error``)."""


def compile_pred(ctx: ProgramContext, fn: Any, fields: dict[str, Any], what: str) -> ir.Pred:
    from clauz3.vocabulary.meta import lambda_node

    code = getattr(fn, "__code__", None)
    if code is None or getattr(fn, "__name__", "") != "<lambda>":
        raise PredError(f"{what} must be an inline lambda, got {type(fn).__name__}")
    node = lambda_node(fn)
    if node is None:
        raise PredError(f"{what} lambda at {code.co_filename}:{code.co_firstlineno} has no readable, "
                        f"unambiguous source")
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if len(names) != 1 or a.vararg or a.kwarg or a.defaults or a.kw_defaults:
        raise PredError(f"{what} lambda must take exactly one parameter")
    src = ctx.source_of(code.co_filename)
    pc = _PredCompiler(ctx, fn, names[0], fields, src, what)
    body = pc.expr(node.body)
    if isinstance(body, ir.RecordVar):
        raise PredError(f"{what} lambda returns the record itself (`lambda {names[0]}: {names[0]}`)")
    source = src.segment(node) if src else ""
    return ir.Pred(names[0], body, source, code.co_filename, node.lineno)


class _PredCompiler:
    def __init__(self, ctx: ProgramContext, fn: Any, param: str, fields: dict[str, Any], src: Any, what: str) -> None:
        self.ctx = ctx
        self.fn = fn
        self.param = param
        self.fields = fields
        self.src = src
        self.what = what
        cells = fn.__closure__ or ()
        self.captured: dict[str, Any] = {}
        for name, cell in zip(fn.__code__.co_freevars, cells, strict=False):
            try:
                self.captured[name] = cell.cell_contents
            except ValueError:
                pass

    def fail(self, node: ast.AST, msg: str) -> PredError:
        seg = self.src.segment(node) if self.src else ""
        line = getattr(node, "lineno", 0)
        return PredError(f"{self.what} lambda uses {msg}" + (f" (`{seg}`)" if seg else "")
                         + f" at {self.fn.__code__.co_filename}:{line}")

    def loc(self, node: ast.AST) -> tuple[int, int]:
        return getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1

    def expr(self, node: ast.expr) -> Any:
        line, col = self.loc(node)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (bool, int, float, str)) or node.value is None:
                return ir.Const(node.value, T.const_type(node.value), line, col)
            raise self.fail(node, "an unsupported constant")
        if isinstance(node, ast.Name):
            if node.id == self.param:
                return ir.RecordVar(node.id, line, col)
            return self.captured_value(node, node.id)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == self.param:
                if node.attr not in self.fields:
                    known = ", ".join(sorted(self.fields)) or "none"
                    raise PredError(f"{self.what} lambda reads field `{node.attr}`, which is not a field of "
                                    f"every call in the relation (fields: {known})")
                rv = ir.RecordVar(self.param, node.value.lineno, node.value.col_offset + 1)
                return ir.FieldGet(rv, node.attr, self.fields[node.attr], line, col)
            value = self.attribute_value(node)
            return value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            elts = tuple(self.expr(e) for e in node.elts)
            et = T.join_all([e.type for e in elts])
            if isinstance(node, ast.List):
                return ir.ListExpr(elts, ir.TList(et), line, col)
            if isinstance(node, ast.Set):
                return ir.SetExpr(elts, ir.TSet(et), line, col)
            return ir.TupleExpr(elts, ir.TTuple(elems=tuple(e.type for e in elts)), line, col)
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise self.fail(node, "a chained comparison")
            op = CMP.get(type(node.ops[0]))
            if op is None:
                raise self.fail(node, "`is`")
            left, right = self.expr(node.left), self.expr(node.comparators[0])
            return ir.Compare(left, (op,), (right,), ir.BOOL, line, col)
        if isinstance(node, ast.BoolOp):
            vals = tuple(self.expr(v) for v in node.values)
            t = vals[0].type
            for v in vals[1:]:
                t = T.join(t, v.type) or ir.OBJECT
            return ir.BoolOp("and" if isinstance(node.op, ast.And) else "or", vals, t, line, col)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.Not):
                return ir.UnaryOp("not", operand, ir.BOOL, line, col)
            if isinstance(node.op, ast.USub) and isinstance(operand, ir.Const) and T.is_numeric(operand.type):
                return ir.Const(-operand.value, operand.type, line, col)
            raise self.fail(node, "an unsupported unary operator")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            left, right = self.expr(node.left), self.expr(node.right)
            op = "+" if isinstance(node.op, ast.Add) else "-"
            lt, rt = left.type, right.type
            if T.is_numeric(lt) and T.is_numeric(rt):
                t = T.numeric_join(lt, rt)
                t = ir.INT if t == ir.BOOL else t
            elif op == "+" and lt == rt == ir.STR:
                t = ir.STR
            else:
                t = lt if lt == rt else ir.OBJECT
            return ir.BinOp(op, left, right, t, line, col, self.src.segment(node) if self.src else "")
        if isinstance(node, ast.Call):
            return self.call(node)
        kinds = {ast.Subscript: "a subscript", ast.IfExp: "a conditional expression", ast.JoinedStr: "an f-string",
                 ast.Lambda: "a nested lambda", ast.ListComp: "a comprehension", ast.GeneratorExp: "a generator",
                 ast.SetComp: "a comprehension", ast.DictComp: "a comprehension", ast.Dict: "a dict display"}
        raise self.fail(node, kinds.get(type(node), f"`{type(node).__name__}`"))

    def captured_value(self, node: ast.AST, name: str) -> Any:
        line, col = self.loc(node)
        if name in self.captured:
            value = self.captured[name]
        elif name in self.fn.__globals__:
            value = self.fn.__globals__[name]
        else:
            raise self.fail(node, f"the unknown name `{name}`")
        return self.value_const(node, name, value, line, col)

    def value_const(self, node: ast.AST, name: str, value: Any, line: int, col: int) -> Any:
        if type(value).__name__ == "ColumnRef" and hasattr(value, "schema"):
            key = self.ctx.layer.row_key(value.schema)
            if key is None:
                raise self.fail(node, f"a column of a class that is not a Row (`{name}`)")
            self.ctx.ensure_row(key)
            schema = self.ctx.rows.get(key)
            ftype = dict(schema.fields).get(value.field, ir.OBJECT) if schema else ir.OBJECT
            return ir.Const((key, value.field), ftype, line, col, "column")
        c = literal_const(value, line, col)
        if c is None:
            raise self.fail(node, f"the captured value `{name}` of type {type(value).__name__}")
        return c

    def attribute_value(self, node: ast.Attribute) -> Any:
        """``Schema.field`` (a ColumnRef) or ``module.CONSTANT`` reached from the lambda's globals."""
        line, col = self.loc(node)
        base: Any = None
        if isinstance(node.value, ast.Name) and node.value.id != self.param:
            nm = node.value.id
            base = self.captured.get(nm, self.fn.__globals__.get(nm))
        if base is None or node.attr.startswith("_"):
            raise self.fail(node, "an attribute that is not a record field")
        try:
            value = getattr(base, node.attr)
        except AttributeError:
            raise self.fail(node, f"the unknown attribute `{node.attr}`") from None
        return self.value_const(node, f"{node.value.id}.{node.attr}", value, line, col)  # type: ignore[attr-defined]  # base is only found through an ast.Name value (above)

    def call(self, node: ast.Call) -> Any:
        line, col = self.loc(node)
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail(node, "keyword or starred arguments")
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in ("startswith", "endswith"):
            if len(node.args) != 1:
                raise self.fail(node, f"`{f.attr}` with other than one argument")
            obj, arg = self.expr(f.value), self.expr(node.args[0])
            return ir.MethodCall("str", f.attr, obj, (arg,), ir.BOOL, line, col,
                                 self.src.segment(node) if self.src else "")
        target = None
        if isinstance(f, ast.Name):
            target = self.captured.get(f.id, self.fn.__globals__.get(f.id, getattr(builtins, f.id, None)))
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            base = self.captured.get(f.value.id, self.fn.__globals__.get(f.value.id))
            target = getattr(base, f.attr, None) if base is not None else None
        if target is len:
            if len(node.args) != 1:
                raise self.fail(node, "`len` with other than one argument")
            return ir.BuiltinCall("len", (self.expr(node.args[0]),), (), ir.INT, line, col)
        name = getattr(target, "__name__", "")
        if callable(target) and getattr(target, "__module__", "") in ("clauz3.vocabulary.path_safety", "clauz3.vocabulary.paths") \
                and name in PATH_PREDICATES:
            if len(node.args) != 1:
                raise self.fail(node, f"`{name}` with other than one argument")
            arg = self.expr(node.args[0])
            key = self.ctx.path_predicate(name)
            return ir.HelperCall(key, (arg,), ir.BOOL, line, col, self.src.segment(node) if self.src else "")
        raise self.fail(node, "a call other than len, startswith, endswith or a path predicate")
