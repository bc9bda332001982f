"""Counterexamples from solver models (01 CEX-1…3): inputs, trusted results, path, trace, why."""

from __future__ import annotations

import ctypes
import itertools
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import z3

from clauz3.prover.logic import subst
from clauz3.prover.state import CallRecord, Ctx, LoopInfo
from clauz3.prover.values import (
    NONE_V,
    DictV,
    ListV,
    MixedV,
    NoneV,
    OpaqueV,
    OptV,
    RecordV,
    RowClassV,
    RowV,
    Tagged,
    TDictV,
    TListV,
    check,
    dict_visible,
    raw,
    visible,
)

if TYPE_CHECKING:
    pass

MAX_STR = 200
MAX_TRACE = 20
MAX_ROWS = 5
LOOP_CAP = 500


def string_chars(v: z3.SeqRef) -> str:
    """Exact code points of a z3 string literal (``as_string`` escapes and is ambiguous)."""
    n = z3.Z3_get_string_length(v.ctx_ref(), v.as_ast())
    if n == 0:
        return ""
    buf = (ctypes.c_uint * n)()
    z3.Z3_get_string_contents(v.ctx_ref(), v.as_ast(), n, buf)
    return "".join(chr(buf[i]) for i in range(n))


def fp_to_float(v: Any) -> float:
    if z3.is_fp_value(v):
        if v.isNaN():
            return math.nan
        if v.isInf():
            return -math.inf if v.isNegative() else math.inf
        if v.isZero():
            return -0.0 if v.isNegative() else 0.0
        r = z3.simplify(z3.fpToReal(v))
        return float(Fraction(r.numerator_as_long(), r.denominator_as_long()))
    return 0.0


def literal(value: Any) -> str:
    """CEX-3: Python literal, strings JSON-quoted and cut after 200 characters."""
    if isinstance(value, str):
        if len(value) > MAX_STR:
            return json.dumps(value[:MAX_STR], ensure_ascii=False) + f"… (+{len(value) - MAX_STR} chars)"
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Abstract):
        return literal(value.value) + " (abstract)"
    if isinstance(value, Described):
        return value.text
    return repr(value)


@dataclass
class Abstract:
    value: Any


@dataclass
class Described:
    """A value shown as plain words, not a literal (a Row class, a dict whose keys are unknown)."""

    text: str


def jsonable(value: Any) -> Any:
    if isinstance(value, Abstract):
        return {"value": jsonable(value.value), "abstract": True}
    if isinstance(value, Described):
        return value.text
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return literal(value)
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: jsonable(v) for k, v in value.items()}
        return [[jsonable(k), jsonable(v)] for k, v in value.items()]
    return value


@dataclass
class Ref:
    index: int | str
    call: str
    line: int
    effect: str
    args: dict[str, Any]

    def json(self) -> dict[str, Any]:
        return {"index": self.index, "effect": self.effect, "args": self.args, "line": self.line}


class ModelView:
    """Reads one solver model back into Python values and a concrete trace."""

    def __init__(self, model: z3.ModelRef, ctx: Ctx) -> None:
        self.model = model
        self.ctx = ctx
        self._abstract_cache: dict[int, bool] = {}
        self.entries = self._trace()

    # ------------------------------------------------------------------------------- values

    def eval(self, term: Any, assign: list[tuple[Any, Any]] | None = None) -> Any:
        if assign:
            term = subst(term, assign)
        return self.model.eval(term, model_completion=True)

    def true(self, f: Any, assign: list[tuple[Any, Any]] | None = None) -> bool:
        return bool(z3.is_true(self.eval(f, assign)))

    def _is_abstract(self, term: z3.ExprRef) -> bool:
        if not self.ctx.abstract:
            return False
        key = term.get_id()
        if key in self._abstract_cache:
            return self._abstract_cache[key]
        found = False
        todo, seen = [term], set()
        while todo and not found:
            t = todo.pop()
            if t.get_id() in seen:
                continue
            seen.add(t.get_id())
            if z3.is_app(t) and t.decl().name() in self.ctx.abstract:
                found = True
            todo.extend(t.children())
        self._abstract_cache[key] = found
        return found

    def value(self, v: Any, assign: list[tuple[Any, Any]] | None = None) -> Any:
        v = raw(v)
        if isinstance(v, z3.ExprRef):
            out = self._scalar(self.eval(v, assign))
            return Abstract(out) if self._is_abstract(v) else out
        if isinstance(v, NoneV) or v is None:
            return None
        if isinstance(v, OptV):
            return None if self.true(v.is_none, assign) else self.value(v.value, assign)
        if isinstance(v, MixedV):  # the Python type this run took
            return next((self.value(t, assign) for g, t in v.opts if self.true(g, assign)),
                        self.value(v.opts[-1][1], assign))
        if isinstance(v, ListV):
            vals = [self.value(it, assign) for k, it in enumerate(v.items) if self.true(visible(v, k), assign)]
            return tuple(vals) if v.kind == "tuple" else vals
        if isinstance(v, DictV):
            out = {}
            for k in range(len(v.keys)):
                if self.true(dict_visible(v, k), assign):
                    out[hashable(self.value(v.keys[k], assign))] = self.value(v.vals[k], assign)
            return out
        if isinstance(v, RowV):
            return {f: self.value(x, assign) for f, x in v.fields.items()}
        if isinstance(v, RecordV):
            return {f: self.value(x, assign) for f, x in v.fields.items()}
        if isinstance(v, TListV):
            n = self._scalar(self.eval(v.length, assign))
            shown = []
            for k in range(min(max(n, 0), MAX_ROWS)):
                shown.append(self.value(v.elem(z3.IntVal(k)), assign))
            if n > MAX_ROWS:
                shown.append(f"… and {n - MAX_ROWS} more")
            return shown
        if isinstance(v, TDictV):
            n = self._scalar(self.eval(v.length, assign))
            if n == 0:
                return {}
            return Described(f"<dict of {n} entr{'y' if n == 1 else 'ies'}>")
        if isinstance(v, RowClassV):
            return Described(v.schema.rsplit(".", 1)[-1])
        if isinstance(v, OpaqueV):
            return Abstract(v.label)
        try:
            check(v)
        except Exception:
            return "?"
        return repr(v)

    def _scalar(self, t: Any) -> Any:
        if z3.is_true(t):
            return True
        if z3.is_false(t):
            return False
        if z3.is_int_value(t):
            return t.as_long()
        if z3.is_fp_value(t):
            return fp_to_float(t)
        if z3.is_string_value(t):
            return string_chars(t)
        if z3.is_rational_value(t):
            return float(Fraction(t.numerator_as_long(), t.denominator_as_long()))
        return str(t)

    def show(self, v: Any, assign: list[tuple[Any, Any]] | None = None) -> str:
        return literal(self.value(v, assign))

    # -------------------------------------------------------------------------------- trace

    def iterations(self, loops: tuple[LoopInfo, ...], base: list[tuple[Any, Any]] | None = None
                   ) -> list[list[tuple[Any, Any]]]:
        assigns: list[list[tuple[Any, Any]]] = [list(base or [])]
        for lp in loops:
            nxt = []
            for a in assigns:
                n = self._scalar(self.eval(lp.length, a))
                n = n if isinstance(n, int) else 0
                for k in range(min(max(n, 0), LOOP_CAP)):
                    nxt.append([*a, (lp.index, z3.IntVal(k))])
            assigns = nxt
        return assigns

    def _trace(self) -> list[tuple[tuple[Any, ...], CallRecord, list[tuple[Any, Any]]]]:
        found = []
        for r in self.ctx.records:
            for assign in self.iterations(r.loops):
                if self.true(r.guard, assign):
                    key: list[Any] = []
                    for lp, (_, k) in zip(r.loops, assign, strict=True):
                        key.extend([lp.start_seq, k.as_long()])
                    key.extend([r.seq, -1])
                    found.append((tuple(key), r, assign))
        found.sort(key=lambda e: e[0])
        self._positions = {(id(r), tuple(k.as_long() for _, k in a)): pos + 1
                           for pos, (_, r, a) in enumerate(found)}
        return found

    def position(self, record: CallRecord, assign: list[tuple[Any, Any]] | None = None) -> int | None:
        """1-based number of the call in the ``effects:`` trace (the numbering every ``#n`` uses)."""
        ks = tuple(k.as_long() for _, k in (assign or []))
        return self._positions.get((id(record), ks))

    def occurrences(self, record: CallRecord, extra: Any = None) -> list[tuple[int, list[tuple[Any, Any]]]]:
        """(trace number, loop assignment) of each execution of ``record`` (where ``extra`` holds), in order."""
        out = []
        for assign in self.iterations(record.loops):
            if not self.true(record.guard, assign):
                continue
            if extra is not None and not self.true(extra, assign):
                continue
            pos = self.position(record, assign)
            if pos is not None:
                out.append((pos, assign))
        return out

    def ref(self, record: CallRecord, mapping: list[tuple[Any, Any]] | None = None,
            assign: list[tuple[Any, Any]] | None = None) -> Ref:
        if assign is None:
            ks: list[int] = []
            for lp in record.loops:
                idx = subst(lp.index, mapping or [])
                val = self._scalar(self.eval(idx))
                ks.append(val if isinstance(val, int) else 0)
            assign = [(lp.index, z3.IntVal(k)) for lp, k in zip(record.loops, ks, strict=True)]
        pos = self.position(record, assign)
        index: int | str = pos if pos is not None else "?"
        args = {p: self.value(v, assign) for p, v in record.args.items()}
        return Ref(index, self.call_text(record, assign), record.line, record.effect.short,
                   {k: jsonable(v) for k, v in args.items()})

    def call_text(self, record: CallRecord, assign: list[tuple[Any, Any]]) -> str:
        parts = []
        for p in record.effect.params:
            if p.name not in record.args:
                continue
            if p.name in record.passed:
                parts.append(f"{p.name}={self.show(record.args[p.name], assign)}")
                continue
            # EFF-6: an omitted argument is unconstrained in proofs; a scalar shows the value this
            # run happened to use, a collection only that it is arbitrary.
            value = self.value(record.args[p.name], assign)
            plain = value.value if isinstance(value, Abstract) else value
            if plain is None or isinstance(plain, bool | int | float | str):
                parts.append(f"{p.name}=<omitted: any value, here {literal(plain)}>")
            else:
                parts.append(f"{p.name}=<omitted: any value>")
        return f"{record.effect.short}({', '.join(parts)})"


def hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, hashable(x)) for k, x in v.items()))
    if isinstance(v, Abstract):
        return hashable(v.value)
    return v


def build(mv: ModelView, why: str, breaking: list[dict[str, Any]]) -> dict[str, Any]:
    """The CEX-1 object for one violated obligation."""
    ctx = mv.ctx
    inputs = {name: mv.value(v) for name, v in ctx.inputs}
    returns = []
    for tr in ctx.results:
        r = tr.record
        for assign in mv.iterations(r.loops):
            if not mv.true(r.guard, assign):
                continue
            call = r.source or mv.call_text(r, assign)
            value = mv.value(tr.value, assign)
            if isinstance(value, list) and isinstance(tr.value, TListV):
                n = mv.value(tr.value.length, assign)
                value = {"len": n, "rows" if value and isinstance(value[0], dict) else "items": value}
            returns.append({"effect": r.effect.short, "call": call, "line": r.line,
                            "args": {k: jsonable(mv.value(v, assign)) for k, v in r.args.items()},
                            "value": jsonable(value), "text": f"{call} at line {r.line} returned "
                            f"{_show_result(value)}"})
            if len(returns) >= MAX_TRACE:
                break
    path, path_more = path_entries(mv)
    trace, trace_more = trace_entries(mv, why)
    return {
        "inputs": {k: jsonable(v) for k, v in inputs.items()},
        "inputs_text": ", ".join(f"{k}={literal(v)}" for k, v in inputs.items()),
        "returns": returns,
        "path": path,
        "trace": trace,
        "trace_more": trace_more,
        "path_more": path_more,
        "breaking": breaking,
        "why": why[:1000],
        "confirmed": False,
    }


def trace_entries(mv: ModelView, why: str) -> tuple[list[dict[str, Any]], int]:
    """At most 20 calls of the trace: the first ones, plus every call ``why`` names by number (CEX-3)."""
    total = len(mv.entries)
    named = sorted({int(m) for m in re.findall(r"#(\d+)", why) if 0 < int(m) <= total})
    late = [i for i in named if i > MAX_TRACE][: MAX_TRACE // 2]
    head = min(total, MAX_TRACE - len(late))
    chosen = [*range(1, head + 1), *[i for i in late if i > head]]
    out = []
    for number in chosen:
        _, r, assign = mv.entries[number - 1]
        out.append({"index": number, "effect": r.effect.short, "call": mv.call_text(r, assign),
                    "args": {k: jsonable(mv.value(v, assign)) for k, v in r.args.items()}, "line": r.line})
    return out, total - len(out)


@dataclass
class _Summary:
    line: int
    condition: str
    in_loop: bool
    reached: int = 0
    true_count: int = 0
    loop_runs: int = 0
    iterations: int = 0


def path_entries(mv: ModelView) -> tuple[list[dict[str, Any]], int]:
    """CEX-1 ``path``: branch decisions in order; loops as iteration counts; a condition decided
    once per iteration of a symbolic loop (or repeatedly by an unrolled one) as one summary."""
    items: list[dict[str, Any] | _Summary] = []
    summaries: dict[tuple[Any, ...], _Summary] = {}
    for d in mv.ctx.decisions:
        reached = [a for a in mv.iterations(d.loops) if mv.true(d.guard, a)]
        if not reached:
            continue
        if d.loop is not None or d.steps is not None:
            key: tuple[Any, ...] = ("loop", d.line, d.source)
            summary = summaries.get(key)
            if summary is None:
                summary = summaries[key] = _Summary(d.line, d.source, True)
                items.append(summary)
            for a in reached:
                summary.loop_runs += 1
                if d.loop is not None:
                    n = mv.value(d.loop.length, a)
                    summary.iterations += n if isinstance(n, int) else 0
                else:
                    summary.iterations += sum(1 for step in d.steps or [] if mv.true(step, a))
            continue
        if d.loops:
            key = ("if", d.line, d.source)
            summary = summaries.get(key)
            if summary is None:
                summary = summaries[key] = _Summary(d.line, d.source, True)
                items.append(summary)
            summary.reached += len(reached)
            summary.true_count += sum(1 for a in reached if mv.true(d.cond, a))
            continue
        entry = {"line": d.line, "condition": d.source, "taken": mv.true(d.cond)}
        if d.iteration:
            entry["iteration"] = list(d.iteration)  # which pass of an unrolled loop decided it
        items.append(entry)
    if len(items) > MAX_TRACE:
        items = _collapse_repeats(items)
    out = [_summary_json(x) if isinstance(x, _Summary) else x for x in items]
    return out[:MAX_TRACE], max(0, len(out) - MAX_TRACE)


def _collapse_repeats(items: list[dict[str, Any] | _Summary]) -> list[dict[str, Any] | _Summary]:
    """Too many decisions (an unrolled loop, a helper called often): one summary per condition."""
    out: list[dict[str, Any] | _Summary] = []
    seen: dict[tuple[int, str], _Summary] = {}
    for x in items:
        if isinstance(x, _Summary):
            out.append(x)
            continue
        key = (x["line"], x["condition"])
        summary = seen.get(key)
        if summary is None:
            summary = seen[key] = _Summary(x["line"], x["condition"], False)
            out.append(summary)
        summary.reached += 1
        summary.true_count += 1 if x["taken"] else 0
    return [_single(x) if isinstance(x, _Summary) and not x.in_loop and x.reached == 1 else x for x in out]


def _single(x: _Summary) -> dict[str, Any]:
    return {"line": x.line, "condition": x.condition, "taken": x.true_count == 1}


def _summary_json(x: _Summary) -> dict[str, Any]:
    if x.loop_runs:
        entry: dict[str, Any] = {"line": x.line, "condition": x.condition, "iterations": x.iterations}
        if x.loop_runs > 1:
            entry["loop_runs"] = x.loop_runs
        return entry
    return {"line": x.line, "condition": x.condition, "taken": x.true_count == x.reached,
            "true_count": x.true_count, "evaluations": x.reached, "per_iteration": x.in_loop}


def _show_result(value: Any) -> str:
    if isinstance(value, dict) and "len" in value:
        rows = value.get("rows", value.get("items", []))
        return f"{value['len']} item(s): {literal(rows)}" if rows else f"{value['len']} item(s)"
    return literal(value)


__all__ = ["NONE_V", "ModelView", "Tagged", "build", "itertools", "literal", "string_chars"]
