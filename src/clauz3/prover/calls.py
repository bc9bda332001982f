"""Calls during symbolic execution: trusted effects become guarded call records (EFF-5), helpers and
solver models are inlined with their ``requires``/``ensures`` as obligations (01 §3.6).

The executor (``execute.py``) calls these with itself; they see it through
:class:`~clauz3.prover.state.SymbolicExecutor`.
"""

from __future__ import annotations

from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover.logic import mk_or, z3_false
from clauz3.prover.state import CallRecord, Frame, SymbolicExecutor, TrustedResult
from clauz3.prover.values import NONE_V, RowClassV, Unsupported, check, merge_many


def call_effect(ex: SymbolicExecutor, e: ir.EffectCall) -> Any:
    ctx = ex.ctx
    eff = ex.program.effects[e.effect]
    args: dict[str, Any] = {}
    for param, expr in e.args:
        args[param] = ex.eval(expr)
    ptypes = {p.name: p.type for p in eff.params}
    for param in e.omitted:
        args[param] = ex.fresh_value(ptypes[param], f"{eff.short}_{param}",
                                     label=f"{eff.short}.{param} (omitted)")
    if ex.pure:
        raise Unsupported("an effect call inside a condition")
    for k, cond in enumerate(eff.requires):
        holds = ex.eval_condition(cond, args)
        details = tuple((p.name, args[p.name]) for p in eff.params if _mentions(cond.expr, p.name))
        ex.obligation("precondition", ("pre", e.site, k), e.line, e.col,
                      f"precondition {eff.short} at line {e.line}: {cond.source}", holds, details,
                      predicate=cond.source, call=e.source[:300], effect=eff.name,
                      module=eff.name.rsplit(".", 1)[0], source_kind="library",
                      message=cond.message)
    record = CallRecord(seq=len(ctx.records), site=e.site, effect=eff, args=args,
                        passed=tuple(p for p, _ in e.args), guard=ex.pc, line=e.line,
                        source=e.source, loops=tuple(ctx.loops))
    ctx.records.append(record)
    rtype = eff.returns
    if eff.row_param and isinstance(rtype, ir.TList):
        # EFF-4: rows of the Row class passed, never ``list[object]`` (not representable).
        cls = check(args.get(eff.row_param))
        if isinstance(cls, RowClassV):
            rtype = ir.TList(ir.TRow(_row_key(ex.program, cls.schema)))
        elif isinstance(e.type, ir.TList) and isinstance(e.type.elem, ir.TRow):
            rtype = e.type
    if isinstance(rtype, ir.TScalar) and rtype.name == "None":
        result: Any = NONE_V
    else:
        label = e.source or f"{eff.short}(…)"
        result = ex.fresh_value(rtype, eff.short, label=f"{label} at line {e.line}", record=record)
        ctx.results.append(TrustedResult(record, result))
    record.result = result
    env = dict(args)
    env["result"] = result
    for cond in eff.ensures:
        ctx.assume(z3.Implies(ex.pc, ex.eval_condition(cond, env)))
    return result


def inline(ex: SymbolicExecutor, name: str, args: list[Any], node: Any) -> Any:
    fn = ex.program.functions[name]
    env = {p.name: a for p, a in zip(fn.params, args, strict=False)}
    short = fn.name.rsplit(".", 1)[-1]
    for k, cond in enumerate(fn.requires):
        holds = ex.eval_condition(cond, env)
        ex.obligation("precondition", ("hpre", name, node.line, node.col, k), node.line, node.col,
                      f"precondition {short} at line {node.line}: {cond.source}", holds,
                      tuple((p.name, env[p.name]) for p in fn.params if _mentions(cond.expr, p.name)),
                      predicate=cond.source, call=getattr(node, "source", "")[:300],
                      module=fn.module, source_kind="library", message=cond.message)
    saved_frame = ex.frame
    ex.frame = Frame(env, file=fn.file)
    ex.fn_stack.append(fn)
    start_pc = ex.pc
    try:
        ex.exec_block(fn.body)
        fall_pc = ex.pc
        rets = ex.frame.returns
    finally:
        ex.fn_stack.pop()
        ex.frame = saved_frame
    if fn.returns_value and rets:
        live = [(g, v) for g, v in rets if not z3.is_false(g)] or rets
        result = merge_many(live)
        ex.pc = mk_or(*[g for g, _ in rets], fall_pc) if not z3.is_false(fall_pc) else \
            mk_or(*[g for g, _ in rets])
    else:
        result = NONE_V
        ex.pc = mk_or(fall_pc, *[g for g, _ in rets])
    if z3.is_false(ex.pc) and not z3.is_false(start_pc):
        ex.pc = z3_false()
    renv = dict(env)
    renv["result"] = result
    for k, cond in enumerate(fn.ensures):
        holds = ex.eval_condition(cond, renv)
        ex.obligation("postcondition", ("post", name, node.line, node.col, k), node.line, node.col,
                      f"postcondition {short} at line {node.line}", holds,
                      predicate=cond.source, call=getattr(node, "source", "")[:300],
                      module=fn.module, source_kind="library", message=cond.message)
    return result


def _row_key(program: ir.CheckedProgram, schema: str) -> str:
    if schema in program.rows:
        return schema
    for key, row in program.rows.items():
        if row.short == schema or key.endswith("." + schema):
            return key
    return schema


def _mentions(e: Any, name: str) -> bool:
    if isinstance(e, ir.Name):
        return e.id == name
    if isinstance(e, tuple):
        return any(_mentions(x, name) for x in e)
    if hasattr(e, "__dataclass_fields__"):
        return any(_mentions(getattr(e, f), name) for f in e.__dataclass_fields__
                   if f not in ("type",))
    return False
