"""Assignment and ownership in function bodies (01 §3.3, MUT-1): binding names, destructuring,
augmented and item assignment, and the static length bounds (LOOP-1) both need.

:class:`AssignCompiler` is the base of ``statements.BodyCompiler``, which adds blocks, control
flow and loops; it holds the per-body state both read (open loops, returns, assignment counts).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.calls import CallCompiler
from clauz3.language.expressions import Var

ACCUMULATOR_HINT = "count with a guarantee, or iterate a literal"


@dataclass
class LoopCtx:
    mode: str
    breaks: list[dict[str, Var]] = field(default_factory=list)
    continues: list[dict[str, Var]] = field(default_factory=list)
    outer: set[str] = field(default_factory=set)


class AssignCompiler(CallCompiler):
    """Assignments of one function body (see :class:`clauz3.language.statements.BodyCompiler`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.loops: list[LoopCtx] = []
        self.returns: list[tuple[Any, ast.Return]] = []
        self.assign_counts: dict[str, int] = {}

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
                             loop_depth=self.symbolic_depth, min_len=self.min_len(value))
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
        declared = self.ctx.inliner.annotation(node.annotation, self)
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

    # ------------------------------------------------------------------------ static lengths

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
                return len(range(*[a.value for a in e.args]))  # type: ignore[union-attr, arg-type]  # each is an int Const (tested above)
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

    def min_len(self, e: Any) -> int:
        """A lower bound on the length of ``e`` (0 when unknown), so a loop over it is known to run.

        ``static_len`` is an upper bound (a list appended to under a branch, a comprehension with a
        filter, a set display with equal elements); a name is bound after a loop only when the loop
        surely runs (issue 18), which needs this bound instead. The checked subset has no mutation
        that shrinks a collection (append, extend, add, item assignment), so a bound taken at the
        binding stays a lower bound until the name is bound again.
        """
        if isinstance(e, (ir.ListExpr, ir.TupleExpr)):
            return len(e.elts)
        if isinstance(e, ir.SetExpr):
            return 1 if e.elts else 0  # equal elements collapse
        if isinstance(e, ir.DictExpr):
            return 1 if e.keys else 0  # a repeated key overwrites
        if isinstance(e, ir.Const):
            if e.kind in ("list", "tuple"):
                return len(e.value)
            if e.kind in ("set", "dict"):
                return 1 if e.value else 0
            if isinstance(e.value, str) and e.kind == "scalar":
                return len(e.value)
            return 0
        if isinstance(e, ir.Name):
            v = self.env.get(e.id)
            return v.min_len if v is not None and v.state == "bound" else 0
        if isinstance(e, ir.ListComp):
            return 0 if e.conds else self.min_len(e.iter)
        if isinstance(e, ir.BuiltinCall):
            if e.name in ("list", "tuple"):
                return self.min_len(e.args[0]) if e.args else 0
            if e.name in ("set", "dict"):
                return 1 if e.args and self.min_len(e.args[0]) > 0 else 0
            if e.name == "enumerate":
                return self.min_len(e.args[0])
            if e.name == "range" and all(isinstance(a, ir.Const) and type(a.value) is int for a in e.args):
                return len(range(*[a.value for a in e.args]))  # type: ignore[union-attr, arg-type]  # each is an int Const (tested above)
            return 0
        if isinstance(e, ir.MethodCall) and e.receiver == "dict" and e.method in ("keys", "values", "items"):
            return self.min_len(e.obj)
        if isinstance(e, ir.BinOp) and e.op == "+":
            return self.min_len(e.left) + self.min_len(e.right)
        return 0

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
