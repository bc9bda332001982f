"""Assignments in function bodies (01 §3.3, MUT-1): binding names, destructuring, augmented and
item assignment.

:class:`AssignCompiler` is held by ``statements.BodyCompiler`` and compiles the right-hand sides
through the body's ``expressions.ExprCompiler``; the facts an assignment records (ownership, length
bounds, the loop restrictions it must respect) live in the shared :class:`clauz3.language.body.Body`.
"""

from __future__ import annotations

import ast
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.body import Body, Var
from clauz3.language.expressions import ExprCompiler


class AssignCompiler:
    """The assignments of one function body."""

    def __init__(self, body: Body, exprs: ExprCompiler) -> None:
        self.body = body
        self.exprs = exprs

    # ------------------------------------------------------------------------ assignment

    def bind_name(self, node: ast.AST, name: str, value: Any, value_node: ast.expr | None,
                  declared: Any = None) -> ir.NameTarget:
        self.body.check_outer_assign(node, name)
        t = value.type
        fresh = isinstance(value, (ir.ListExpr, ir.SetExpr, ir.DictExpr, ir.ListComp)) or (
            isinstance(value, ir.BuiltinCall) and value.name in ("list", "set", "dict"))
        empty = fresh and self.body.static_len(value) == 0 and isinstance(t, (ir.TList, ir.TSet, ir.TDict))
        refinable = False
        if declared is not None and not T.is_err(t) and empty:
            t = declared
        elif empty and (getattr(t, "elem", None) == ir.OBJECT or getattr(t, "key", None) == ir.OBJECT):
            refinable = True
        trusted = self.body.is_trusted(value)
        if value_node is not None:
            self.body.release(value_node)  # MUT-1: bound to a second name, through any expression form
        self.body.env[name] = Var(t, owned=fresh, trusted=trusted, max_len=self.body.static_len(value), refinable=refinable,
                                  loop_depth=self.body.symbolic_depth, min_len=self.body.min_len(value))
        return ir.NameTarget(name, t)

    def s_Assign(self, node: ast.Assign) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if len(node.targets) != 1:
            self.body.err(node, "unsupported-statement", "chained assignment", "assign one name at a time")
            return None, False
        target = node.targets[0]
        if isinstance(target, ast.Subscript):
            return self.set_item(node, target, node.value)
        value = self.exprs.expr(node.value)
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
            self.body.err(target, "unsupported-statement", "attribute assignment")
        elif isinstance(target, ast.Starred):
            self.body.err(target, "unsupported-statement", "starred assignment target")
        else:
            self.body.err(target, "unsupported-statement", "assignment to this target")
        return None

    def destructure(self, target: ast.Tuple | ast.List, value: Any) -> list[Any] | None:
        """Pseudo-values (type carriers) for each element of a destructuring assignment."""
        n = len(target.elts)
        if any(isinstance(e, ast.Starred) for e in target.elts):
            self.body.err(target, "unsupported-statement", "starred assignment target")
            return None
        t = value.type
        if T.is_err(t):
            return [ir.Const(None, T.ERR, value.line, value.col)] * n
        if isinstance(t, ir.TTuple) and t.elems is not None:
            if len(t.elems) != n:
                self.body.err(target, "type-error", f"cannot unpack {len(t.elems)} values into {n} names")
                return None
            return [ir.Const(None, e, value.line, value.col) for e in t.elems]
        length = self.body.static_len(value) if isinstance(value, (ir.ListExpr, ir.TupleExpr, ir.Const)) else None
        e = T.elem_type(t)
        if length is None or e is None:
            self.body.err(target, "type-error", "destructuring needs a statically known length",
                          "unpack a tuple or a list display")
            return None
        if length != n:
            self.body.err(target, "type-error", f"cannot unpack {length} values into {n} names")
            return None
        return [ir.Const(None, e, value.line, value.col)] * n

    def s_AnnAssign(self, node: ast.AnnAssign) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if node.value is None:
            self.body.err(node, "unsupported-statement", "bare annotation without a value")
            return None, False
        if not isinstance(node.target, ast.Name):
            if isinstance(node.target, ast.Subscript):
                return self.set_item(node, node.target, node.value)
            self.body.err(node.target, "unsupported-statement", "attribute assignment")
            return None, False
        value = self.exprs.expr(node.value)
        declared = self.body.ctx.inliner.annotation(node.annotation, self.body)
        tgt = self.bind_name(node.target, node.target.id, value, node.value, declared)
        return ir.Assign(tgt, value, line, col), False

    def s_AugAssign(self, node: ast.AugAssign) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if not isinstance(node.target, ast.Name):
            self.body.err(node, "unsupported-statement", "augmented assignment to a subscript or attribute",
                          "assign a new value to a local name")
            return None, False
        name = node.target.id
        current = self.exprs.x_Name(node.target)
        self.body.check_outer_assign(node, name)
        op = {v: k for k, v in {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv,
                                "%": ast.Mod, "**": ast.Pow, "&": ast.BitAnd, "|": ast.BitOr,
                                "^": ast.BitXor, "<<": ast.LShift, ">>": ast.RShift}.items()}.get(type(node.op))
        if op is None:
            self.body.err(node, "unsupported-statement", "augmented assignment with `@=`")
            return None, False
        value = self.exprs.expr(node.value)
        if T.is_err(current.type, value.type):
            return None, False
        if not T.is_scalar(current.type):
            self.body.err(node, "unsupported-statement", f"augmented assignment to the collection `{name}`",
                          "build a new collection instead")
            return None, False
        if op == "%" and current.type == ir.STR:
            self.body.err(node, "unsupported-expression", "`%`-formatting", "use an f-string")
            return None, False
        t = self.exprs.binop_type(op, current, value)
        if t is None:
            self.body.err(node, "type-error",
                          f"unsupported operand types for `{op}=`: {T.show(current.type)} and {T.show(value.type)}")
            return None, False
        var = self.body.env[name]
        var.type = t
        var.max_len = None
        return ir.AugAssign(name, op, value, t, line, col, self.body.seg(node)), False

    def set_item(self, node: ast.stmt, target: ast.Subscript, value_node: ast.expr) -> tuple[ir.Stmt | None, bool]:
        line, col = self.body.loc(node)
        if isinstance(target.slice, ast.Slice):
            self.body.err(target, "unsupported-statement", "slice assignment")
            return None, False
        if self.body.mutation_problem(target.value):
            return None, False
        assert isinstance(target.value, ast.Name)
        name = target.value.id
        var = self.body.env[name]
        index = self.exprs.expr(target.slice)
        value = self.exprs.stored(value_node)
        if T.is_err(index.type, value.type):
            return None, False
        t = var.type
        if isinstance(t, ir.TDict) and T.unhashable(index.type):
            self.body.err(node, "type-error", f"unhashable dict key of type {T.show(index.type)}")
            return None, False
        if isinstance(t, ir.TDict):
            if var.refinable and t.key == ir.OBJECT:
                var.type = ir.TDict(index.type, value.type)
                var.refinable = False
            else:
                if not T.assignable(index.type, t.key) or not T.assignable(value.type, t.value):
                    self.body.err(node, "type-error",
                                  f"cannot store {T.show(index.type)} → {T.show(value.type)} in `{name}` of type "
                                  f"{T.show(t)}")
                    return None, False
            if var.max_len is not None:
                var.max_len += self.body.loop_mult
        elif isinstance(t, ir.TList):
            if not T.is_intlike(index.type):
                self.body.err(node, "type-error", f"list index must be int, got {T.show(index.type)}")
                return None, False
            if not T.assignable(value.type, t.elem):
                self.body.err(node, "type-error", f"cannot store {T.show(value.type)} in `{name}` of type {T.show(t)}")
                return None, False
        else:
            self.body.err(node, "type-error", f"`{name}` of type {T.show(t)} does not support item assignment")
            return None, False
        return ir.SetItem(name, index, value, line, col), False
