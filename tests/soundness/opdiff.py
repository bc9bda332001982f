"""Per-operation differential evaluation: the interpreter and the prover's encoding at the same values.

For one entry of ``clauz3.language.operations`` and concrete argument values, :class:`OpLab` writes
the one-statement program that applies the operation, checks it with the real checker, then

* runs it in the real interpreter (``interp.execute.Machine``): a result or an exception;
* executes it in the real symbolic executor (``prover.execute.Executor``) and asks z3 whether the
  encoding allows that very outcome: the result term can equal the interpreter's result, or, when
  the interpreter raised, some exception obligation can fail.

Two paths: ``fold`` writes the values as literals, so the prover may fold them; ``symbolic`` makes
them parameters of ``main`` (the proof covers every value) and pins each parameter to the value by
structural equality (``-0.0`` is not ``0.0``, a NaN is itself), so the prover cannot fold.
A disagreement is a soundness bug: the prover would prove something a run breaks.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

HERE = Path(__file__).resolve().parent
IMPORT_ROOT = HERE / "gen_layers"
TRUSTED_ROOT = IMPORT_ROOT / "tools" / "gen" / "trusted"


@dataclass(frozen=True)
class SetLit:
    """A set display with its elements as written (repeats included)."""

    items: tuple[Any, ...]


@dataclass(frozen=True)
class DictLit:
    """A dict display with its pairs as written (overwritten keys included)."""

    pairs: tuple[tuple[Any, Any], ...]


NAN = float("nan")
INF = float("inf")
EDGES: dict[str, tuple[Any, ...]] = {
    "bool": (True, False),
    "int": (0, 1, -1, 2, 2**53 - 1, 2**53 + 1, -(2**53) - 1, 2**63, 10**30, 1 << 1100, -(1 << 1100), 0x10FFFF,
            0x110000, 7, -7, 3),
    "float": (0.0, -0.0, NAN, INF, -INF, 1.5, -2.5, 0.5, 1e308, 1.5e308, 5e-324, 2.0**53, 0.1, 3.0, -1.0),
    "str": ("", "a", "ab", "aa", "é", "😀", "İ", "ß", " a ", "0", "12", "-3", "1.5", "nan", "a,b", "x" * 5),
    "None": (None,),
    "int | None": (None, 0, 5),
    "int!": (0, 1, -1, 2, 3, -2, 5, -308, 400),
    "nat!": (0, 1, 2, 3, 64),
    "list[int]": ((), (0,), (1, 1), (3, 1, 2), (2**53 + 1, -1), (1 << 1100,)),
    "list[str]": ((), ("a",), ("a", "a"), ("b", "é", ""), ("ß",)),
    "list[float]": ((), (NAN,), (0.0, -0.0), (INF, -INF), (1e308, 1e308), (0.1, 0.2, 0.3), (NAN, 1.0)),
    "tuple[int, ...]": ((3, 1, 2), (), (1,), (1, 1)),
    "tuple[int, int]": ((1, 2), (0, -1), (2**53 + 1, 2**53)),
    "set[int]": (SetLit(()), SetLit((1,)), SetLit((1, 1)), SetLit((3, 1, 3, 2)), SetLit((2**53 + 1, 2**53))),
    "set[str]": (SetLit(()), SetLit(("a",)), SetLit(("a", "a")), SetLit(("b", "a", "b"))),
    "dict[str, int]": (DictLit(()), DictLit((("a", 1),)), DictLit((("a", 1), ("a", 2))),
                       DictLit((("b", 2), ("a", 1), ("b", 3)))),
}
LIST_KINDS = {"list[int]", "list[str]", "list[float]"}


def literal(kind: str, v: Any) -> str:
    """``v`` as program source."""
    if isinstance(v, SetLit):
        return "{" + ", ".join(literal("", x) for x in v.items) + "}" if v.items else "set()"
    if isinstance(v, DictLit):
        return "{" + ", ".join(f"{literal('', k)}: {literal('', x)}" for k, x in v.pairs) + "}"
    if kind in LIST_KINDS:
        return "[" + ", ".join(literal("", x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(literal("", x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, float):
        if v != v:
            return 'float("nan")'
        if math.isinf(v):
            return "math.inf" if v > 0 else "-math.inf"
        return repr(v)
    return repr(v)


def py_value(kind: str, v: Any) -> Any:
    """``v`` as the interpreter's value."""
    from clauz3.interp import semantics as sem

    if isinstance(v, SetLit):
        return sem.OrderedSet(v.items)
    if isinstance(v, DictLit):
        return sem.build_dict(v.pairs)
    if kind in LIST_KINDS:
        return list(v)
    return v


def annotation(kind: str) -> str:
    return kind


@dataclass
class Outcome:
    op: str
    path: str
    kinds: tuple[str, ...]
    values: tuple[Any, ...]
    status: str  # agree | refused | unsupported | violation | table | crash | inconclusive
    detail: str = ""
    interp: str = ""  # the interpreter's result or exception, for messages
    exact: bool | None = None  # the encoding pins the result (and the exceptions) to the interpreter's
    source: str = ""

    def line(self) -> str:
        shown = ", ".join(literal(k.rstrip("!"), v) for k, v in zip(self.kinds, self.values, strict=True))
        return f"{self.status}: {self.op} [{self.path}] ({shown}) -> {self.interp}: {self.detail}"


@dataclass
class Tally:
    by_status: dict[str, int] = field(default_factory=dict)
    by_op: dict[str, int] = field(default_factory=dict)
    bad: list[Outcome] = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        self.by_status[o.status] = self.by_status.get(o.status, 0) + 1
        if o.status in ("agree",):
            self.by_op[o.op] = self.by_op.get(o.op, 0) + 1
        if o.status in ("violation", "table", "crash"):
            self.bad.append(o)


class Pin:
    """z3 conditions that a prover value *is* a Python value (structurally)."""

    def __init__(self, ex: Any) -> None:
        self.ex = ex

    def same(self, r: Any, v: Any) -> Any:
        from clauz3.interp.semantics import OrderedSet
        from clauz3.prover.values import (
            DictV,
            ListV,
            MixedV,
            NoneV,
            OptV,
            TDictV,
            TListV,
            check,
            float_lit,
            is_bool,
            is_float,
            is_int,
            is_str,
            length,
            raw,
            str_lit,
            visible,
        )

        r = check(raw(r))
        false = z3.BoolVal(False)
        if isinstance(r, MixedV):
            return z3.Or(*[z3.And(g, self.same(t, v)) for g, t in r.opts])
        if isinstance(r, OptV):
            if v is None:
                return r.is_none
            return z3.And(z3.Not(r.is_none), self.same(r.value, v))
        if isinstance(r, NoneV):
            return z3.BoolVal(v is None)
        if v is None:
            return false
        if isinstance(v, bool):
            return r == z3.BoolVal(v) if is_bool(r) else false
        if isinstance(v, int):
            return r == z3.IntVal(v) if is_int(r) else false
        if isinstance(v, float):
            return r == float_lit(v) if is_float(r) else false
        if isinstance(v, str):
            return r == str_lit(v) if is_str(r) else false
        if isinstance(v, (list, tuple)):
            kind = "tuple" if isinstance(v, tuple) else "list"
            if isinstance(r, ListV) and r.kind == kind:
                if len(r.items) < len(v):
                    return false
                n = z3.IntVal(r.n) if isinstance(r.n, int) else r.n
                return z3.And(n == len(v), *[self.same(r.items[k], x) for k, x in enumerate(v)])
            if isinstance(r, TListV) and r.kind == kind:
                return z3.And(r.length == len(v), *[self.same(r.elem(z3.IntVal(k)), x) for k, x in enumerate(v)])
            return false
        if isinstance(v, OrderedSet):
            items = list(v)
            if isinstance(r, ListV) and r.kind == "set":
                vis = [visible(r, k, self.ex.ctx.fresh_bool) for k in range(len(r.items))]
                parts = [length(r) == len(items)]
                for j, x in enumerate(items):  # the j-th visible item is x: same order as the interpreter
                    parts.append(z3.Or(*[z3.And(vis[k], z3.Sum(z3.IntVal(0), *[z3.If(vis[i], 1, 0) for i in range(k)])
                                                == j, self.same(r.items[k], x)) for k in range(len(r.items))]))
                return z3.And(*parts)
            if isinstance(r, TListV) and r.kind == "set":
                return z3.And(r.length == len(items), *[self.same(r.elem(z3.IntVal(k)), x)
                                                        for k, x in enumerate(items)])
            return false
        if isinstance(v, dict):
            if isinstance(r, DictV):
                parts = [length(r) == len(v)]
                for key, x in v.items():
                    hits = [z3.And(r.present[k], self.same(r.keys[k], key)) for k in range(len(r.keys))]
                    last = [z3.And(hits[k], *[z3.Not(h) for h in hits[k + 1:]], self.same(r.vals[k], x))
                            for k in range(len(r.keys))]
                    parts.append(z3.Or(*last))
                # the keys, in order: visible key j is the j-th key of v
                return z3.And(*parts)
            if isinstance(r, TDictV) and r.has is not None:
                keys = list(v)
                has = z3.K(r.has.domain(), z3.BoolVal(False))
                for key in keys:
                    has = z3.Store(has, str_lit(key), z3.BoolVal(True))
                return z3.And(r.length == len(v), r.has == has,
                              *[self.same(z3.Select(r.val, str_lit(key)), x) for key, x in v.items()])
            return false
        return false


def _py_class(v: Any) -> str:
    return type(v).__name__


def show(v: Any) -> str:
    from clauz3.interp.values import render

    return f"{render(v, 60)} ({_py_class(v)})"


class OpLab:
    """The checker, the interpreter and the prover's executor, for one-operation programs."""

    def __init__(self) -> None:
        from clauz3.language.layer import load_layer

        self.layer = load_layer([TRUSTED_ROOT], [IMPORT_ROOT])
        self.count = 0

    def program_source(self, op: Any, kinds: tuple[str, ...], values: tuple[Any, ...], path: str) -> str:
        """fold: each argument a local bound to its literal (the prover knows its value); symbolic: a
        parameter of main. Literal-only kinds (``int!``) and None are written in place either way."""
        args, params, lines = [], [], []
        for k, (kind, v) in enumerate(zip(kinds, values, strict=True)):
            name = "abcdefg"[k]
            if kind.endswith("!") or kind == "None":
                args.append(literal(kind.rstrip("!"), v))
            elif path == "fold":
                lines.append(f"{name}: {annotation(kind)} = {literal(kind, v)}")
                args.append(name)
            else:
                params.append(f"{name}: {annotation(kind)}")
                args.append(name)
        body = lines + op.source(args).split("\n")
        return "import math\n\n\ndef main(" + ", ".join(params) + ") -> None:\n" + "".join(
            f"    {line}\n" for line in body)

    def run(self, op: Any, kinds: tuple[str, ...], values: tuple[Any, ...], path: str) -> Outcome:
        import sys

        from clauz3.language import Refused, check_source

        sys.set_int_max_str_digits(0)  # as prove() does while it runs: z3 literals never depend on it

        self.count += 1
        src = self.program_source(op, kinds, values, path)
        out = Outcome(op.key, path, kinds, values, "agree", source=src)
        try:
            program = check_source(src.encode(), f"/opdiff/case_{self.count}.py", self.layer, "main")
        except Refused as exc:
            out.status = "refused"
            out.detail = "; ".join(d.code for d in exc.diagnostics if d.severity == "error")
            return out
        fn = program.functions[program.target]
        inputs = {p.name: py_value(kind.rstrip("!"), v)
                  for p, kind, v in zip(fn.params, [k for k in kinds if not (k.endswith("!") or k == "None")],
                                        [v for k, v in zip(kinds, values, strict=True)
                                         if not (k.endswith("!") or k == "None")], strict=True)} \
            if path == "symbolic" else {}
        raised, result = self.interpret(program, fn, inputs)
        out.interp = f"raises {raised}" if raised else show(result)
        if raised in RESOURCE_LIMITS:  # ends a run, never an obligation (docs/semantics.md)
            out.status = "resource"
            return out
        if isinstance(result, str) and len(result) > 10_000:
            out.status, out.detail = "unsupported", "a result too long to compare in the solver"
            return out
        if raised and raised not in op_exceptions(op):
            out.status, out.detail = "table", f"the interpreter raises {raised}, which the table does not list"
            return out
        try:
            self.prove(program, fn, inputs, raised, result, out)
        except Exception as exc:  # the prover declined (Unsupported) or crashed
            from clauz3.prover.values import Unsupported

            if isinstance(exc, Unsupported):
                out.status, out.detail = "unsupported", str(exc)
            else:
                out.status, out.detail = "crash", f"{type(exc).__name__}: {exc}"
        return out

    def interpret(self, program: Any, fn: Any, inputs: dict[str, Any]) -> tuple[str | None, Any]:
        from clauz3.interp.errors import ProgramError
        from clauz3.interp.execute import Machine

        machine = Machine(program, stdout=io.StringIO(), step_budget=100_000)
        env = dict(inputs)
        try:
            machine.exec_block(fn.body, env)
        except ProgramError as exc:
            return type(exc.exc).__name__ if exc.exc is not None else "ProgramError", None
        return None, env.get("r")

    def prove(self, program: Any, fn: Any, inputs: dict[str, Any], raised: str | None, result: Any,
              out: Outcome) -> None:
        from clauz3.prover.execute import Executor
        from clauz3.prover.state import Ctx, Frame

        ctx = Ctx(program)
        ex = Executor(ctx)
        env: dict[str, Any] = {}
        for p in fn.params:
            env[p.name] = ex.fresh_value(p.type, p.name, label=p.name, role="input")
        pin = Pin(ex)
        pins = [pin.same(env[name], v) for name, v in inputs.items()]
        ex.frame = Frame(dict(env), file=fn.file)
        ex.fn_stack.append(fn)
        ex.exec_block(fn.body)
        solver = z3.Solver()
        solver.set("timeout", 10_000)
        solver.add(*ctx.assumptions, *pins)
        instances = [(site, inst) for site in ctx.site_order for inst in site.instances if site.kind == "exception"]
        if raised:
            verdicts = []
            for site, inst in instances:
                verdicts.append((site.exception, solver.check(inst.fails)))
            if any(v == z3.sat for _, v in verdicts):
                names = {n for n, v in verdicts if v == z3.sat}
                out.exact = raised in names
                out.detail = f"obligations that fail: {sorted(names)}"
                return
            if any(v == z3.unknown for _, v in verdicts):
                out.status, out.detail = "inconclusive", "solver unknown"
                return
            out.status = "violation"
            out.detail = (f"the interpreter raises {raised} but no exception obligation can fail "
                          f"({[n for n, _ in verdicts]}): the prover would prove it never raises")
            return
        r = ex.frame.env.get("r")
        if r is None:
            out.status, out.detail = "unsupported", "no result bound"
            return
        same = pin.same(r, result)
        verdict = solver.check(ex.pc, same)
        if verdict == z3.unknown:
            out.status, out.detail = "inconclusive", "solver unknown"
            return
        if verdict == z3.unsat:
            out.status = "violation"
            out.detail = "the encoding excludes the interpreter's result: the prover would prove a false fact"
            return
        pinned = solver.check(ex.pc, z3.Not(same)) == z3.unsat
        none_fail = all(solver.check(inst.fails) == z3.unsat for _, inst in instances)
        out.exact = pinned and none_fail
        if not none_fail:
            out.detail = "an exception obligation may fail where the interpreter does not raise"


RESOURCE_LIMITS = frozenset({"MemoryError", "RecursionError"})


def op_exceptions(op: Any) -> frozenset[str]:
    """Exceptions the table lets an operation's program raise: its own, and UnboundLocalError never."""
    return frozenset(r.exception for r in op.raises)


def edge_cases(op: Any, cap: int = 12, seed: int = 0) -> list[tuple[tuple[str, ...], tuple[Any, ...]]]:
    """Edge values first, deterministic: each signature's arguments all at their first edge, then each
    edge of each argument against the first edges of the others, then seeded random combinations,
    ``cap`` cases per signature (each signature at least once)."""
    import random

    rng = random.Random(f"{seed}|{op.key}")
    out: list[tuple[tuple[str, ...], tuple[Any, ...]]] = []
    for sig in op.domain:
        pools = [EDGES[k] for k in sig]
        seen: dict[tuple[str, ...], None] = {}
        combos: list[tuple[Any, ...]] = []

        def add(combo: tuple[Any, ...], seen: dict[tuple[str, ...], None] = seen,
                combos: list[tuple[Any, ...]] = combos) -> None:
            if _key(combo) not in seen and len(combos) < cap:
                seen[_key(combo)] = None
                combos.append(combo)

        add(tuple(p[0] for p in pools))
        longest = max((len(p) for p in pools), default=0)
        for depth in range(longest):  # round-robin over the arguments: every edge early
            for pos, pool in enumerate(pools):
                if depth < len(pool):
                    add(tuple(pool[depth] if j == pos else pools[j][0] for j in range(len(pools))))
        total = 1
        for p in pools:
            total *= len(p)
        for _ in range(4 * cap):
            if len(combos) >= min(cap, total):
                break
            add(tuple(rng.choice(p) for p in pools))
        out.extend((sig, c) for c in combos)
    return out


def _key(combo: tuple[Any, ...]) -> tuple[str, ...]:
    # repr tells -0.0 from 0.0, makes NaN equal to itself, and keeps 1 apart from True
    return tuple(repr(v) for v in combo)
