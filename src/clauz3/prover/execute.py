"""Path-sensitive symbolic execution of the checked IR with guarded merging (01 §3.3–3.6, EFF-5).

The executor keeps one path condition ``pc`` for the code it is at; ``if`` runs both branches
under the condition and its negation and merges the environments with z3 ``If``. ``return``,
``break``, ``continue`` and ``raise`` make the rest of a path dead (``pc`` false) and hand their
state to the join point that resumes it. Every effect call becomes a :class:`CallRecord` guarded
by the ``pc`` at the call, so calls in dead branches contribute nothing (REL-2).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import z3

from clauz3.language import ir
from clauz3.language.formatspec import INT_BITS
from clauz3.prover import access, compare, ops
from clauz3.prover.builtins import call_builtin, call_method
from clauz3.prover.calls import call_effect, inline
from clauz3.prover.constants import const_value
from clauz3.prover.fresh import fresh_value
from clauz3.prover.join import UNBOUND, merge_env
from clauz3.prover.logic import conjuncts, mk_and, mk_not, mk_or, truthy, z3_false, z3_true
from clauz3.prover.state import CallRecord, Ctx, Decision, Frame, LoopInfo, Site
from clauz3.prover.strfold import formatted_unknown, known_float, known_str
from clauz3.prover.values import (
    NONE_V,
    DictV,
    ListV,
    OptV,
    RecordV,
    RowV,
    TListV,
    Unsupported,
    check,
    is_int,
    merge,
    none_uses,
    options,
    raw,
    str_lit,
)


@dataclass
class LoopCtl:
    breaks: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    continues: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    iteration: int = 0  # 1-based iteration being executed (shown on the path of a counterexample)


class Executor:
    """Symbolic interpreter of one program; ``pure`` evaluation (conditions, predicates) adds no obligations."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.program = ctx.program
        self.pc: Any = z3_true()
        self.frame = Frame({})
        self.pure = False
        self.loops: list[LoopCtl] = []
        self.local_conds: list[Any] = []
        self.fn_stack: list[ir.Function] = []
        self.line = 0

    # ------------------------------------------------------------------------------- entry

    def run_target(self) -> None:
        fn = self.program.functions[self.program.target]
        env: dict[str, Any] = {}
        for p in fn.params:
            value = self.fresh_value(p.type, p.name, label=p.name, role="input")
            env[p.name] = value
            self.ctx.inputs.append((p.name, value))
        self.frame = Frame(env, file=fn.file)
        self.fn_stack.append(fn)
        with none_uses(self.none_used):
            self.exec_block(fn.body)

    def none_used(self, is_none: Any) -> None:
        """An operation needs a value that is ``None`` when ``is_none``: an obligation that it is not
        (CPython raises TypeError there). A path whose test already says so needs none."""
        if self.pure:
            return
        cond = mk_not(is_none)
        if z3.is_true(cond) or any(c.eq(cond) for c in conjuncts(self.pc)):
            return
        fn = self.fn_stack[-1].name if self.fn_stack else ""
        line = self.line
        self.obligation("exception", ("exc", fn, line, 0, "TypeError", "None"), line, 0,
                        f"exception TypeError at line {line}: a value that may be None is used as a value",
                        cond, exception="TypeError", expression="a value that may be None",
                        module=self.fn_stack[-1].module if self.fn_stack else "")

    # --------------------------------------------------------------------------- helpers

    @contextmanager
    def under(self, cond: Any) -> Iterator[None]:
        saved = self.pc
        self.pc = mk_and(self.pc, cond)
        self.local_conds.append(cond)
        try:
            yield
        finally:
            self.local_conds.pop()
            self.pc = saved

    def obligation(self, kind: str, key: tuple[Any, ...], line: int, col: int, subject: str, cond: Any,
                   details: tuple[tuple[str, Any], ...] = (), **extra: Any) -> None:
        if self.pure:
            return
        if z3.is_true(cond) and not self.ctx.sites.get(key):
            # Still record the site so it is reported (as proved) in SEM-2 order.
            pass
        site = Site(kind=kind, key=key, line=line, col=col, subject=subject, **extra)
        self.ctx.obligation(site, self.pc, cond, details)

    def exception(self, name: str, node: ir.Expr | ir.Stmt, cond: Any, expression: str,
                  details: tuple[tuple[str, Any], ...] = ()) -> None:
        line, col = node.line, node.col
        fn = self.fn_stack[-1].name if self.fn_stack else ""
        self.obligation("exception", ("exc", fn, line, col, name, expression), line, col,
                        f"exception {name} at line {line}: {expression}", cond, details,
                        exception=name, expression=expression, module=self.fn_stack[-1].module
                        if self.fn_stack else "")

    def fresh_value(self, t: ir.Type, hint: str, *, label: str = "", role: str = "",
                    record: CallRecord | None = None, abstract: bool = False) -> Any:
        return fresh_value(self, t, hint, label=label, record=record, abstract=abstract)

    # ------------------------------------------------------------------------- statements

    def exec_block(self, stmts: tuple[ir.Stmt, ...]) -> None:
        for s in stmts:
            if z3.is_false(self.pc):
                return
            self.exec_stmt(s)

    def exec_stmt(self, s: ir.Stmt) -> None:
        if not self.pure:
            self.line = s.line
        if isinstance(s, ir.Assign):
            self.bind(s.target, self.eval(s.value))
        elif isinstance(s, ir.AugAssign):
            cur = self.read(s.name, s)
            node = ir.BinOp(s.op, ir.Name(s.name, s.type, s.line, s.col), s.value, s.type, s.line, s.col,
                            s.source)
            self.frame.env[s.name] = ops.binop(self, node, s.op, cur, self.eval(s.value))
        elif isinstance(s, ir.SetItem):
            self.set_item(s)
        elif isinstance(s, ir.ExprStmt):
            self.eval(s.value)
        elif isinstance(s, ir.Return):
            value = self.eval(s.value) if s.value is not None else NONE_V
            self.frame.returns.append((self.pc, value))
            self.pc = z3_false()
        elif isinstance(s, ir.If):
            self.exec_if(s)
        elif isinstance(s, ir.For):
            if s.mode == "symbolic":
                self.exec_symbolic_for(s)
            else:
                self.exec_unrolled_for(s)
        elif isinstance(s, ir.Break):
            self.loops[-1].breaks.append((self.pc, dict(self.frame.env)))
            self.pc = z3_false()
        elif isinstance(s, ir.Continue):
            self.loops[-1].continues.append((self.pc, dict(self.frame.env)))
            self.pc = z3_false()
        elif isinstance(s, ir.Assert):
            cond = truthy(self.eval(s.test))
            fn = self.fn_stack[-1].name if self.fn_stack else ""
            self.obligation("assertion", ("assert", fn, s.line, s.col), s.line, s.col,
                            f"assertion at line {s.line}: {s.source}", cond, predicate=s.source)
        elif isinstance(s, ir.Raise):
            for a in s.args:
                self.eval(a)
            expr = s.source or f"raise {s.exception}"
            self.exception(s.exception, s, z3_false(), expr)
            self.pc = z3_false()
        elif isinstance(s, ir.Pass):
            pass
        else:
            raise Unsupported(f"statement {type(s).__name__}")

    def bind(self, target: ir.Target, value: Any) -> None:
        if isinstance(target, ir.NameTarget):
            self.frame.env[target.id] = value
            self.frame.env.pop(UNBOUND + target.id, None)
            return
        value = check(value)
        if isinstance(value, ListV) and isinstance(value.n, int) and value.n == len(target.elts):
            for t, v in zip(target.elts, value.items, strict=True):
                self.bind(t, v)
            return
        raise Unsupported("destructuring a value whose length is not known")

    def set_item(self, s: ir.SetItem) -> None:
        value = self.eval(s.value)  # CPython's order (and the interpreter's): value, subscript, target
        index = self.eval(s.index)
        cur = check(self.read(s.name, s))
        if isinstance(cur, DictV):
            self.frame.env[s.name] = DictV([*cur.keys, index], [*cur.vals, value], [*cur.present, z3_true()])
            return
        if isinstance(cur, ListV):
            i = ops.to_index(index)
            n = ops.int_term(cur.n)
            self.exception("IndexError", s, z3.And(-n <= i, i < n), f"{s.name}[…] = …",
                           (("index", i),))
            norm = z3.If(i < 0, i + n, i)
            items = [merge(norm == k, value, item) for k, item in enumerate(cur.items)]
            self.frame.env[s.name] = ListV(items, cur.n, cur.kind)
            return
        raise Unsupported("item assignment on this value")

    def exec_if(self, s: ir.If) -> None:
        cond = truthy(self.eval(s.test))
        folded = z3.simplify(cond)
        if z3.is_true(folded) or z3.is_false(folded):
            cond = folded
        if not self.pure:
            self.ctx.decisions.append(Decision(s.line, s.source, cond, self.pc, tuple(self.ctx.loops),
                                               iteration=tuple(c.iteration for c in self.loops)))
        pc0, env0 = self.pc, self.frame.env
        self.pc, self.frame.env = mk_and(pc0, cond), dict(env0)
        self.exec_block(s.body)
        pc1, env1 = self.pc, self.frame.env
        self.pc, self.frame.env = mk_and(pc0, mk_not(cond)), dict(env0)
        self.exec_block(s.orelse)
        pc2, env2 = self.pc, self.frame.env
        self.pc = mk_or(pc1, pc2)
        self.frame.env = merge_env([(pc1, env1), (pc2, env2)])

    def exec_unrolled_for(self, s: ir.For) -> None:
        items = access.iterate(self, s.iter)
        ctl = LoopCtl()
        self.loops.append(ctl)
        steps: list[Any] = []
        if not self.pure:
            src = getattr(s.iter, "source", "") or ""
            self.ctx.decisions.append(Decision(s.line, f"for … in {src}" if src else "for loop", z3_true(), self.pc,
                                               tuple(self.ctx.loops), steps=steps))
        for number, (guard, item) in enumerate(items, 1):
            if z3.is_false(self.pc):
                break
            ctl.iteration = number
            start_pc, start_env = self.pc, dict(self.frame.env)
            self.pc = mk_and(start_pc, guard)
            steps.append(self.pc)
            ctl.continues = []
            self.bind(s.target, item)
            self.exec_block(s.body)
            states = [(self.pc, self.frame.env), *ctl.continues]
            skip = mk_and(start_pc, mk_not(guard))
            if not z3.is_false(skip):
                states.append((skip, start_env))
            self.pc = mk_or(*[g for g, _ in states])
            self.frame.env = merge_env(states)
        self.loops.pop()
        states = [(self.pc, self.frame.env), *ctl.breaks]
        self.pc = mk_or(*[g for g, _ in states])
        self.frame.env = merge_env(states)

    def exec_symbolic_for(self, s: ir.For) -> None:
        coll = check(self.eval(s.iter))
        if not isinstance(coll, TListV):
            raise Unsupported("a symbolic loop over something that is not a trusted list")
        ctx = self.ctx
        idx = z3.Int(ctx.name("i"))
        loop = LoopInfo(ctx.counter, idx, coll.length, s.line, coll.label, start_seq=len(ctx.records))
        ctx.all_loops.append(loop)
        pc0, env0 = self.pc, dict(self.frame.env)
        item = coll.elem(idx)
        ctx.loops.append(loop)
        self.pc = mk_and(pc0, idx >= 0, idx < coll.length)
        if not self.pure:
            ctx.decisions.append(Decision(s.line, f"for … in {coll.label}", z3_true(), pc0, tuple(ctx.loops[:-1]),
                                          loop=loop))
        try:
            self.bind(s.target, item)
            self.exec_block(s.body)
        finally:
            ctx.loops.pop()
        self.pc, self.frame.env = pc0, env0

    # ------------------------------------------------------------------------ expressions

    def eval(self, e: ir.Expr) -> Any:
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            raise Unsupported(f"expression {type(e).__name__}")
        return method(e)

    def e_Const(self, e: ir.Const) -> Any:
        return self.const(e.value, e.kind)

    def const(self, value: Any, kind: str = "scalar") -> Any:
        return const_value(value, kind)

    def e_Name(self, e: ir.Name) -> Any:
        return self.read(e.id, e)

    def read(self, name: str, node: ir.Expr | ir.Stmt) -> Any:
        """The value of a local name; where some path reaching here left it unbound, an obligation
        that this is not such a path (CPython raises UnboundLocalError)."""
        try:
            value = self.frame.env[name]
        except KeyError:
            raise Unsupported(f"name {name!r} is not bound here") from None
        unbound = self.frame.env.get(UNBOUND + name)
        if unbound is not None:
            self.exception("UnboundLocalError", node, mk_not(unbound), name)
        return value

    def e_RecordVar(self, e: ir.RecordVar) -> Any:
        return self.frame.env[e.id]

    def e_Formatted(self, e: ir.Formatted) -> Any:
        # format(value, spec) on a known value is computed with CPython's own format (the spec subset
        # of language/formatspec.py never raises and does not depend on the Python version).
        v = check(self.eval(e.value))
        # The interpreter refuses ints of more than INT_BITS bits (CPython's digit limit, which the
        # environment may lower, and int -> float overflow would otherwise decide).
        limit = 2 ** INT_BITS
        fits = [z3.Or(z3.Not(g), z3.And(x > -limit, x < limit)) for g, x in options(raw(v)) if is_int(x)]
        if fits:
            self.exception("ValueError", e, z3.And(*fits), "f-string field with a format spec")
        known: Any = known_str(v)
        if known is None:
            known = known_float(v)
        if known is None:
            term = z3.simplify(v) if isinstance(v, z3.ExprRef) else None
            if term is not None and z3.is_int_value(term):
                known = term.as_long()
            elif term is not None and (z3.is_true(term) or z3.is_false(term)):
                known = z3.is_true(term)
        if known is not None and not (type(known) is int and known.bit_length() > INT_BITS):
            return str_lit(format(known, e.spec))
        return formatted_unknown(self, e.spec, v)  # length and alphabet facts (issue 18)

    def e_RowNew(self, e: ir.RowNew) -> Any:
        # Fields in the order written; each keeps its value (and provenance), as the interpreter does.
        # clauz3.Row wants exactly an int for an int field: a path where the value is a bool (or a
        # float) raises TypeError in the interpreter, so it is an obligation here.
        schema = self.program.rows.get(e.schema)
        types = dict(schema.fields) if schema is not None else {}
        fields = {}
        for name, value in e.fields:
            v = self.eval(value)
            if types.get(name) == ir.INT:
                other = [g for g, x in options(raw(v)) if not is_int(x)]
                if other:
                    self.exception("TypeError", e, z3.Not(z3.Or(*other)),
                                   f"{e.schema.rsplit('.', 1)[-1]}({name}=…)")
            fields[name] = v
        return RowV(e.schema, fields)

    def e_ListExpr(self, e: ir.ListExpr) -> Any:
        items = [self.eval(x) for x in e.elts]
        return ListV(items, len(items), "list")

    def e_TupleExpr(self, e: ir.TupleExpr) -> Any:
        items = [self.eval(x) for x in e.elts]
        return ListV(items, len(items), "tuple")

    def e_SetExpr(self, e: ir.SetExpr) -> Any:
        items = [self.eval(x) for x in e.elts]
        return ListV(items, len(items), "set")

    def e_DictExpr(self, e: ir.DictExpr) -> Any:
        keys, vals = [], []
        for k, v in zip(e.keys, e.values, strict=True):  # k1, v1, k2, v2…: CPython's (and the interpreter's) order
            keys.append(self.eval(k))
            vals.append(self.eval(v))
        return DictV(keys, vals, [z3_true()] * len(keys))

    def e_ListComp(self, e: ir.ListComp) -> Any:
        items = access.iterate(self, e.iter)
        # Only the comprehension's own variables are scoped (as in the interpreter): a mutation in
        # its element or condition (xs.append(…)) stays.
        names = _target_names(e.target)
        names += [UNBOUND + n for n in names]
        saved = {n: self.frame.env[n] for n in names if n in self.frame.env}
        out = ListV([], 0, "list")
        for guard, item in items:
            with self.under(guard):
                self.bind(e.target, item)
                keep = z3_true()
                for c in e.conds:
                    with self.under(keep):
                        keep = mk_and(keep, truthy(self.eval(c)))
                with self.under(keep):
                    value = self.eval(e.elt)
                out = ops.append_if(out, mk_and(guard, keep), value)
        for n in names:
            self.frame.env.pop(n, None)
        self.frame.env.update(saved)
        return out

    def e_BinOp(self, e: ir.BinOp) -> Any:
        left = self.eval(e.left)
        right = self.eval(e.right)
        return ops.binop(self, e, e.op, left, right)

    def e_UnaryOp(self, e: ir.UnaryOp) -> Any:
        return ops.unary(self, e, self.eval(e.operand))

    def e_BoolOp(self, e: ir.BoolOp) -> Any:
        value = self.eval(e.values[0])
        guard = z3_true()
        for nxt in e.values[1:]:
            t = truthy(value)
            go = t if e.op == "and" else mk_not(t)
            with self.under(mk_and(guard, go)):
                other = self.eval(nxt)
            value = merge(go, other, value)
        return value

    def e_Compare(self, e: ir.Compare) -> Any:
        left = self.eval(e.left)
        result = z3_true()
        for op, comp in zip(e.ops, e.comparators, strict=True):
            with self.under(result):
                right = self.eval(comp)
            result = mk_and(result, compare.compare(self, e, op, left, right))
            left = right
        return result

    def e_IfExp(self, e: ir.IfExp) -> Any:
        c = truthy(self.eval(e.test))
        with self.under(c):
            a = self.eval(e.body)
        with self.under(mk_not(c)):
            b = self.eval(e.orelse)
        return merge(c, a, b)

    def e_Subscript(self, e: ir.Subscript) -> Any:
        return access.subscript(self, e, self.eval(e.value), self.eval(e.index))

    def e_Slice(self, e: ir.Slice) -> Any:
        value = self.eval(e.value)
        lower = self.eval(e.lower) if e.lower is not None else None
        upper = self.eval(e.upper) if e.upper is not None else None
        return access.slice_(self, value, lower, upper)

    def e_FieldGet(self, e: ir.FieldGet) -> Any:
        obj = check(self.eval(e.value))
        if isinstance(obj, RowV):
            return obj.fields[e.field]
        if isinstance(obj, RecordV):
            if e.field in obj.fields:
                return obj.fields[e.field]
            # A field the event (sub)class lacks: unconstrained (EVT-3).
            v = self.fresh_value(e.type, "field_" + e.field)
            obj.fields[e.field] = v
            return v
        raise Unsupported(f"field {e.field} of this value")

    def e_FString(self, e: ir.FString) -> Any:
        out: Any = z3.StringVal("")
        for part in e.parts:
            if isinstance(part, str):
                piece = str_lit(part)
            else:
                piece = ops.to_str(self, part, self.eval(part))
            out = z3.Concat(out, piece) if not (z3.is_string_value(out) and out.as_string() == "") else piece
        return out

    def e_EffectCall(self, e: ir.EffectCall) -> Any:
        result = call_effect(self, e)
        # A trusted function receives the value itself: one declared `str` must not get a None the
        # checker's types missed (issue 18), nor may its contracts be judged on the payload.
        record = self.ctx.records[-1] if self.ctx.records else None
        if record is not None and record.site == e.site:
            for p in record.effect.params:
                if not isinstance(p.type, ir.TOptional | ir.TObject) and p.type != ir.NONE:
                    v = raw(record.args.get(p.name))
                    if isinstance(v, OptV):
                        self.none_used(v.is_none)
                    elif v is NONE_V:
                        self.none_used(z3_true())
        return result

    def eval_args(self, exprs: tuple[ir.Expr, ...], order: tuple[int, ...]) -> list[Any]:
        """Arguments evaluated in the order the call writes them (as the interpreter does)."""
        values: list[Any] = [None] * len(exprs)
        for k in (*order, *[k for k in range(len(exprs)) if k not in order]):
            values[k] = self.eval(exprs[k])
        return values

    def e_HelperCall(self, e: ir.HelperCall) -> Any:
        return inline(self, e.function, self.eval_args(e.args, e.order), e)

    def e_SolverCall(self, e: ir.SolverCall) -> Any:
        return inline(self, e.model, self.eval_args(e.args, e.order), e)

    def e_BuiltinCall(self, e: ir.BuiltinCall) -> Any:
        return call_builtin(self, e)

    def e_MethodCall(self, e: ir.MethodCall) -> Any:
        return call_method(self, e)

    # ------------------------------------------------------------------------------ calls

    def eval_condition(self, cond: ir.Condition, env: dict[str, Any]) -> Any:
        """A requires/ensures condition's value from ``env`` alone (callers guard it with the path),
        so inlined helpers give the same terms everywhere: ``if is_plain_path(p)`` then matches
        the precondition ``is_plain_path(path)`` syntactically instead of by solver search."""
        saved_frame, saved_pure, saved_pc = self.frame, self.pure, self.pc
        self.frame, self.pure, self.pc = Frame(dict(env), file=cond.file), True, z3_true()
        try:
            return truthy(self.eval(cond.expr))
        finally:
            self.frame, self.pure, self.pc = saved_frame, saved_pure, saved_pc

    def eval_pred(self, pred: ir.Pred, record: Any) -> Any:
        saved_frame, saved_pure, saved_pc = self.frame, self.pure, self.pc
        self.frame, self.pure, self.pc = Frame({pred.param: record}, file=pred.file), True, z3_true()
        try:
            return self.eval(pred.body)
        finally:
            self.frame, self.pure, self.pc = saved_frame, saved_pure, saved_pc


def _target_names(target: ir.Target) -> list[str]:
    if isinstance(target, ir.NameTarget):
        return [target.id]
    return [n for t in target.elts for n in _target_names(t)]
