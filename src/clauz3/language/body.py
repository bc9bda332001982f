"""What the checker knows of one function body while compiling it (01 §3.3, MUT-1, LOOP-1).

A :class:`Body` is made per compiled function (or condition) and shared, by reference, by the parts
that compile it: ``statements.BodyCompiler`` (blocks, control flow, loops) holds an
``assignments.AssignCompiler`` and an ``expressions.ExprCompiler``, which holds a
``calls.CallCompiler`` and an ``iteration.Iteration`` (loop heads, also of comprehensions). The
body holds what they all read and change: the local names' facts (``env``), the open loops, the
returns and assignment counts, where diagnostics go; and the queries that need nothing but that
state: ownership (MUT-1) and static length bounds (LOOP-1).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import Binding, Scope
from clauz3.language.context import ProgramContext, Source

ACCUMULATOR_HINT = "count with a guarantee, or iterate a literal"


@dataclass
class Var:
    """What the checker knows about a local name at one program point."""

    type: Any
    owned: bool = False  # MUT-1: uniquely owned local collection
    trusted: bool = False  # a read-only trusted result (or element of one)
    max_len: int | None = None  # statically known bound on length (LOOP-1)
    min_len: int = 0  # a lower bound on length: a loop over the name runs at least this often (issue 18)
    state: str = "bound"  # "bound", "maybe" (not bound on every path), "conflict"
    other: Any = None  # the clashing type when state == "conflict"
    refinable: bool = False  # empty display whose element type the first insertion decides
    loop_depth: int = 0  # symbolic-loop nesting depth where the name was bound


@dataclass
class LoopCtx:
    mode: str
    breaks: list[dict[str, Var]] = field(default_factory=list)
    continues: list[dict[str, Var]] = field(default_factory=list)
    outer: set[str] = field(default_factory=set)


def alias_names(node: ast.expr) -> list[str]:
    """Local names whose collection an expression may evaluate to, unchanged (the value shares it)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.BoolOp):
        return [n for v in node.values for n in alias_names(v)]
    if isinstance(node, ast.IfExp):
        return alias_names(node.body) + alias_names(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and len(node.args) >= 2:
        return alias_names(node.args[1])  # dict.get's default is returned as it is
    return []


def copy_env(env: dict[str, Var]) -> dict[str, Var]:
    return {k: replace(v) for k, v in env.items()}


class Expressions(Protocol):
    """The expression compiler (``expressions.ExprCompiler``) as the parts it holds see it: calls and
    loop heads compile their operands through it, and it compiles calls and comprehensions through
    them, so their modules name it by this protocol instead of importing the module that imports them."""

    def expr(self, node: ast.expr) -> Any: ...
    def stored(self, node: ast.expr) -> Any: ...
    def module_binding(self, node: ast.expr) -> Binding | None: ...


class Body:
    """One function body's state, shared by the parts compiling it; ``env`` holds its local names."""

    def __init__(self, ctx: ProgramContext, scope: Scope, src: Source, fn_key: str,
                 locals_: set[str] | None = None) -> None:
        self.ctx = ctx
        self.scope = scope
        self.src = src
        self.file = src.path
        self.fn_key = fn_key
        self.env: dict[str, Var] = {}
        self.locals = locals_ or set()
        self.in_condition = False  # compiling a requires/ensures body: no effects, no mutation
        self.loop_mult = 1  # how many times the current statement may run (unrolled loops)
        self.symbolic_depth = 0
        self.loops: list[LoopCtx] = []
        self.returns: list[tuple[Any, ast.Return]] = []
        self.assign_counts: dict[str, int] = {}

    # ------------------------------------------------------------------------ diagnostics

    def loc(self, node: ast.AST) -> tuple[int, int]:
        return getattr(node, "lineno", 1), self.src.col(node)

    def err(self, node: ast.AST, code: str, message: str, hint: str | None = None) -> ir.Const:
        line, col = self.loc(node)
        self.ctx.diags.error(line, col, code, message, hint, file=self.file)
        return ir.Const(None, T.ERR, line, col)

    def seg(self, node: ast.AST, limit: int = 300) -> str:
        text = self.src.segment(node)
        return text if len(text) <= limit else text[:limit]

    # ------------------------------------------------------------------------ ownership and loops

    def release(self, node: ast.expr) -> None:
        """MUT-1, one rule for every expression form: a local collection the value may *be* (not
        merely be computed from) is no longer uniquely owned: `b = a`, `a or [...]`, `x if c else a`,
        `d.get(k, a)`, and the same as an argument, a stored element or a returned value."""
        for name in alias_names(node):
            if name in self.env:
                self.env[name].owned = False

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
