"""Hand-built IR for prover tests (the checker is tested separately)."""

from __future__ import annotations

import itertools
from typing import Any

from clauz3.language import ir
from clauz3.prover.api import prove
from clauz3.prover.result import ProofResult, render_text

S, I, B, F, N = ir.STR, ir.INT, ir.BOOL, ir.FLOAT, ir.NONE  # noqa: E741
_site = itertools.count(1)


def c(value: Any, t: ir.Type | None = None, line: int = 1, kind: str = "scalar") -> ir.Const:
    if t is None:
        t = {bool: B, int: I, float: F, str: S, type(None): N}.get(type(value), ir.OBJECT)
    return ir.Const(value, t, line, 1, kind)


def lst(*values: Any, t: ir.Type = S) -> ir.Const:
    return ir.Const(tuple(c(v) for v in values), ir.TList(t), 1, 1, "list")


def col(schema: str, field: str) -> ir.Const:
    return ir.Const((schema, field), ir.OBJECT, 1, 1, "column")


def n(name: str, t: ir.Type = I, line: int = 1) -> ir.Name:
    return ir.Name(name, t, line, 1)


def binop(op: str, a: ir.Expr, b: ir.Expr, t: ir.Type = I, line: int = 1, source: str = "") -> ir.BinOp:
    return ir.BinOp(op, a, b, t, line, 1, source)


def cmp(a: ir.Expr, op: str, b: ir.Expr, line: int = 1) -> ir.Compare:
    return ir.Compare(a, (op,), (b,), B, line, 1)


def assign(name: str, value: ir.Expr, t: ir.Type = I, line: int = 1) -> ir.Assign:
    return ir.Assign(ir.NameTarget(name, t), value, line, 1)


def stmt(e: ir.Expr, line: int = 1) -> ir.ExprStmt:
    return ir.ExprStmt(e, line, 1)


def if_(test: ir.Expr, body: list[ir.Stmt], orelse: list[ir.Stmt] = (), line: int = 1,  # type: ignore[assignment]
        source: str = "") -> ir.If:
    return ir.If(test, tuple(body), tuple(orelse), line, 1, source)


def for_(target: str, it: ir.Expr, body: list[ir.Stmt], mode: str = "unrolled", t: ir.Type = S,
         line: int = 1) -> ir.For:
    return ir.For(ir.NameTarget(target, t), it, tuple(body), mode, line, 1)


def cond(expr: ir.Expr, source: str, message: str = "", exception: str = "PreconditionError") -> ir.Condition:
    return ir.Condition(expr, source, message, exception, "effects.py", 1)


def effect(short: str, params: list[tuple[str, ir.Type] | ir.Param], returns: ir.Type = N,
           requires: list[ir.Condition] = (), ensures: list[ir.Condition] = (),  # type: ignore[assignment]
           fluent_updates: tuple[ir.FluentUpdate, ...] = (), performs: tuple[ir.PerformedEvent, ...] = (),
           row_param: str | None = None, domain: str = "email") -> ir.Effect:
    ps = tuple(p if isinstance(p, ir.Param) else ir.Param(p[0], p[1]) for p in params)
    return ir.Effect(f"tools.{domain}.trusted.effects.{short}", short, ps, returns, tuple(requires),
                     tuple(ensures), True, performs, fluent_updates, "effects.py", 1, row_param)


def call(eff: ir.Effect, *args: ir.Expr, line: int = 1, omitted: tuple[str, ...] = (),
         kwargs: dict[str, ir.Expr] | None = None, source: str = "", t: ir.Type | None = None) -> ir.EffectCall:
    names = [p.name for p in eff.params if p.name not in omitted]
    bound = list(zip(names, args, strict=False))
    for k, v in (kwargs or {}).items():
        bound.append((k, v))
    order = {p.name: i for i, p in enumerate(eff.params)}
    bound.sort(key=lambda kv: order[kv[0]])
    return ir.EffectCall(eff.name, tuple(bound), omitted, t or eff.returns, line, 1, next(_site), source)


def rel(*effects: ir.Effect, filters: tuple[ir.Pred, ...] = (), event: str | None = None) -> ir.Relation:
    return ir.Relation(tuple(e.name for e in effects), event, filters, ())


def e(field: str, t: ir.Type = S) -> ir.FieldGet:
    return ir.FieldGet(ir.RecordVar("e", 1, 1), field, t, 1, 1)


def pred(body: ir.Expr, source: str = "lambda e: ...") -> ir.Pred:
    return ir.Pred("e", body, source, "contracts.py", 1)


def guarantee(spec: ir.Spec, expression: str, *, cls: str = "safety", kind: str = "guarantee",
              description: str | None = None, helper: str | None = None, line: int = 1) -> ir.Guarantee:
    name = expression.split("(", 1)[0]
    return ir.Guarantee(kind, expression, expression, helper or f"tools.email.trusted.contracts.{name}",
                        "email", (), description, spec, cls, line, 1)


def program(body: list[ir.Stmt], effects: list[ir.Effect] = (), guarantees: list[ir.Guarantee] = (),  # type: ignore[assignment]
            params: tuple[ir.Param, ...] = (), functions: dict[str, ir.Function] | None = None,
            rows: dict[str, ir.RowSchema] | None = None, fluents: dict[str, ir.Fluent] | None = None,
            events: dict[str, ir.EventClass] | None = None,
            coverage: tuple[ir.CoverageDomain, ...] = (), used: tuple[str, ...] = ()) -> ir.CheckedProgram:
    main = ir.Function("main", params, tuple(body), N, False, "entry", "__entry__", "main.py", 1)
    fns = {"main": main, **(functions or {})}
    return ir.CheckedProgram("main.py", "0" * 64, "main", fns, {x.name: x for x in effects}, rows or {},
                             events or {}, fluents or {}, tuple(guarantees), coverage, used, "0" * 64)


def run(prog: ir.CheckedProgram, **kw: Any) -> ProofResult:
    return prove(prog, **kw)


def verdicts(result: ProofResult) -> list[tuple[str, str]]:
    return [(o.kind, o.conclusion) for o in result.obligations]


def text(result: ProofResult) -> str:
    return render_text(result)


# -------------------------------------------------------------------------------- the email domain

SEND = effect("send_email", [("addr", S), ("msg", S)],
              requires=[cond(ir.Compare(c("@"), ("in",), (n("addr", S),), B, 1, 1), '"@" in addr',
                             'addr must contain "@"')])


def only(*addresses: str) -> ir.Guarantee:
    spec = ir.AllSpec(rel(SEND), pred(ir.Compare(e("addr"), ("in",), (lst(*addresses),), B, 1, 1),
                                      "lambda e: e.addr in addresses"))
    quoted = ", ".join(f'"{a}"' for a in addresses)
    return guarantee(spec, f"emails.only([{quoted}])", description=f"emails go only to [{quoted}]")


def at_most(k: int) -> ir.Guarantee:
    return guarantee(ir.AggregateSpec(rel(SEND), None, "<=", k), f"emails.at_most({k})",
                     description=f"at most {k} emails are sent")


def unique_recipients() -> ir.Guarantee:
    return guarantee(ir.DistinctSpec(rel(SEND), pred(e("addr"), "lambda e: e.addr")),
                     "emails.unique_recipients()", description="no address gets two emails")
