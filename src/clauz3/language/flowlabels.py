"""Data-flow labels over the checked IR (issue 20): which effects' results a value derives from.

A value's *labels* are the effects whose results it derives from. Every operation of the checked
subset joins the labels of its operands (string building, f-strings, containers — one label set per
container —, indexing, methods, comprehensions, builtins such as ``len`` or ``min``); a value
assigned, or an effect called, under a condition carries the condition's labels (implicit flow);
after a branch that may leave early (``return``, ``break``, ``continue``, ``raise``) the rest of the
function runs under the condition's labels; after an operation that may raise, every later effect call
carries its operands' labels (whether the program got that far says something about them).

Each label keeps one *path*: the chain of names and lines from the read call to where it is, for the
counterexample; ``must`` says the label is there on every run that gets here (used for "violated").

:class:`FlowAnalysis` is the static over-approximation (joins at merges, loops to a fixpoint) the
prover decides ``flows.never`` / ``flows.only`` with; :class:`LabelVisitor` is the expression rule the
run-time tracker (``clauz3.interp.flowtrack``) shares with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from clauz3.language import ir

MAX_PATH = 14


@dataclass(frozen=True)
class Lab:
    path: tuple[str, ...]
    must: bool = True


Labels = Mapping[str, Lab]
EMPTY: dict[str, Lab] = {}

# Operations that cannot raise on checked operands (everything else may, which counts as a flow: see above).
# (Not ``math.isinf``/``isnan``/``isclose``, nor ``sum`` or ``+``/``-`` giving a float: an int operand is
# converted to float, an OverflowError for an int past 1e308 — redteam20.)
SAFE_BUILTINS = frozenset({"len", "bool", "abs", "list", "set", "tuple", "range", "enumerate", "print"})
RAISING_METHODS = frozenset({"index", "split"})
RAISING_BINOPS = frozenset({"*", "/", "//", "%", "**", "<<", ">>"})
FLOAT_BINOPS = frozenset({"+", "-"})  # raise only when the result is a float (an int converted)
MUTATING_METHODS = frozenset({"append", "extend", "add"})


def _cap(path: tuple[str, ...]) -> tuple[str, ...]:
    return path if len(path) <= MAX_PATH else (*path[:5], "…", *path[-8:])


def combine(*parts: Labels) -> dict[str, Lab]:
    """Labels of a value made from all of ``parts`` (must if any part must; the shortest path)."""
    out: dict[str, Lab] = {}
    for part in parts:
        for k, lab in part.items():
            old = out.get(k)
            if old is None:
                out[k] = lab
            else:
                path = old.path if len(old.path) <= len(lab.path) else lab.path
                out[k] = Lab(path, old.must or lab.must)
    return out


def join(*parts: Labels) -> dict[str, Lab]:
    """Labels after a merge of paths: any part's labels, must only where every part must."""
    out = combine(*parts)
    return {k: Lab(v.path, all(k in p and p[k].must for p in parts)) for k, v in out.items()}


def step(labels: Labels, text: str) -> dict[str, Lab]:
    return {k: Lab(_cap((*v.path, text)) if not v.path or v.path[-1] != text else v.path, v.must)
            for k, v in labels.items()}


def weak(labels: Labels) -> dict[str, Lab]:
    return {k: Lab(v.path, False) for k, v in labels.items()}


def signature(labels: Labels) -> frozenset[tuple[str, bool]]:
    return frozenset((k, v.must) for k, v in labels.items())


def short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


# ------------------------------------------------------------------------------ syntactic facts


def has_exit(body: Iterable[ir.Stmt]) -> bool:
    """Whether ``body`` may leave its block early (return / break / continue / raise), nested included."""
    for s in body:
        if isinstance(s, ir.Return | ir.Break | ir.Continue | ir.Raise):
            return True
        if isinstance(s, ir.If) and (has_exit(s.body) or has_exit(s.orelse)):
            return True
        if isinstance(s, ir.For) and has_exit(s.body):
            return True
    return False


def _target_names(t: ir.Target) -> list[str]:
    if isinstance(t, ir.NameTarget):
        return [t.id]
    return [n for e in t.elts for n in _target_names(e)]


def assigned(body: Iterable[ir.Stmt]) -> set[str]:
    """Names a block may bind or change (nested blocks and mutating methods included)."""
    out: set[str] = set()
    for s in body:
        if isinstance(s, ir.Assign):
            out.update(_target_names(s.target))
        elif isinstance(s, ir.AugAssign | ir.SetItem):
            out.add(s.name)
        elif isinstance(s, ir.If):
            out |= assigned(s.body) | assigned(s.orelse)
        elif isinstance(s, ir.For):
            out.update(_target_names(s.target))
            out |= assigned(s.body)
        for e in stmt_exprs(s):
            out |= _mutated(e)
    return out


def _mutated(e: object) -> set[str]:
    out: set[str] = set()
    for n in walk(e):
        if isinstance(n, ir.MethodCall) and n.method in MUTATING_METHODS and isinstance(n.obj, ir.Name):
            out.add(n.obj.id)
    return out


def stmt_exprs(s: ir.Stmt) -> tuple[ir.Expr, ...]:
    """The expressions a statement evaluates itself (not those of nested blocks)."""
    if isinstance(s, ir.Assign | ir.AugAssign | ir.ExprStmt):
        return (s.value,)
    if isinstance(s, ir.SetItem):
        return (s.value, s.index)
    if isinstance(s, ir.Return):
        return () if s.value is None else (s.value,)
    if isinstance(s, ir.If):
        return (s.test,)
    if isinstance(s, ir.For):
        return (s.iter,)
    if isinstance(s, ir.Assert):
        return (s.test,) if s.msg is None else (s.test, s.msg)
    if isinstance(s, ir.Raise):
        return tuple(s.args)
    return ()


def children(e: object) -> list[object]:
    """Sub-expressions of an IR expression, in evaluation order as far as it matters here."""
    if isinstance(e, ir.ListExpr | ir.TupleExpr | ir.SetExpr):
        return list(e.elts)
    if isinstance(e, ir.DictExpr):
        return [x for kv in zip(e.keys, e.values, strict=True) for x in kv]
    if isinstance(e, ir.ListComp):
        return [e.iter, *e.conds, e.elt]
    if isinstance(e, ir.BinOp):
        return [e.left, e.right]
    if isinstance(e, ir.UnaryOp):
        return [e.operand]
    if isinstance(e, ir.BoolOp):
        return list(e.values)
    if isinstance(e, ir.Compare):
        return [e.left, *e.comparators]
    if isinstance(e, ir.IfExp):
        return [e.test, e.body, e.orelse]
    if isinstance(e, ir.Subscript):
        return [e.value, e.index]
    if isinstance(e, ir.Slice):
        return [x for x in (e.value, e.lower, e.upper) if x is not None]
    if isinstance(e, ir.FieldGet | ir.Formatted):
        return [e.value]
    if isinstance(e, ir.FString):
        return [p for p in e.parts if not isinstance(p, str)]
    if isinstance(e, ir.EffectCall):
        return [a for _, a in e.args]
    if isinstance(e, ir.HelperCall | ir.SolverCall):
        return list(e.args)
    if isinstance(e, ir.BuiltinCall):
        return [*e.args, *(v for _, v in e.kwargs)]
    if isinstance(e, ir.MethodCall):
        return [e.obj, *e.args]
    if isinstance(e, ir.RowNew):
        return [v for _, v in e.fields]
    return []


def walk(e: object) -> Iterable[object]:
    yield e
    for c in children(e):
        yield from walk(c)


def binop_may_raise(op: str, result: object) -> bool:
    """Whether ``a op b`` (or ``a op= b``) with this result type may raise on checked operands."""
    return op in RAISING_BINOPS or (op in FLOAT_BINOPS and result == ir.FLOAT)


def may_raise(e: object) -> bool:
    """Whether evaluating this node itself may raise (its operands aside)."""
    if isinstance(e, ir.Subscript | ir.Formatted | ir.EffectCall | ir.HelperCall | ir.SolverCall | ir.RowNew):
        return True
    if isinstance(e, ir.BinOp):
        return binop_may_raise(e.op, e.type)
    if isinstance(e, ir.BuiltinCall):
        return e.name not in SAFE_BUILTINS and not (e.name == "sum" and e.type == ir.INT)
    if isinstance(e, ir.MethodCall):
        return e.method in RAISING_METHODS
    if isinstance(e, ir.FString):
        return any(not isinstance(p, str) and getattr(p, "type", None) != ir.STR for p in e.parts)
    return False


def may_stop(body: Iterable[ir.Stmt]) -> bool:
    """Whether running ``body`` may raise: a ``raise``/``assert``, a list store, or an operation that may fail
    (an effect or helper call among them), nested blocks included. The run-time labels use it for the branch
    not taken and a loop that ran zero times, where the static analysis saw the raise point (redteam20)."""
    for s in body:
        if isinstance(s, ir.Raise | ir.Assert | ir.SetItem):
            return True
        if isinstance(s, ir.AugAssign) and binop_may_raise(s.op.rstrip("="), s.type):
            return True
        if any(may_raise(n) for e in stmt_exprs(s) for n in walk(e)):
            return True
        if isinstance(s, ir.If) and (may_stop(s.body) or may_stop(s.orelse)):
            return True
        if isinstance(s, ir.For) and may_stop(s.body):
            return True
    return False


def op_name(e: object) -> str:
    """The operation kind a node is, for the label-propagation coverage report."""
    if isinstance(e, ir.BinOp):
        return f"binop {e.op}" + (" (str)" if e.type == ir.STR else "")
    if isinstance(e, ir.BuiltinCall):
        return f"builtin {e.name}"
    if isinstance(e, ir.MethodCall):
        return f"method {e.receiver}.{e.method}"
    if isinstance(e, ir.UnaryOp | ir.BoolOp):
        return f"{type(e).__name__} {e.op}"
    return type(e).__name__


# ------------------------------------------------------------------------------ the expression rule


@dataclass
class Frame:
    """One function activation: labels of its names, the branch labels and the early-exit labels."""

    env: dict[str, dict[str, Lab]]
    pc: dict[str, Lab] = field(default_factory=dict)
    sticky: dict[str, Lab] = field(default_factory=dict)

    def control(self) -> dict[str, Lab]:
        return combine(self.pc, self.sticky)


class LabelVisitor:
    """Labels of an expression in a frame; calls are the subclass's business (static or run time)."""

    def __init__(self) -> None:
        self.stop: dict[str, Lab] = {}
        self.coverage: Counter[str] = Counter()

    def call_labels(self, e: ir.EffectCall, args: list[dict[str, Lab]], fr: Frame) -> dict[str, Lab]:
        raise NotImplementedError

    def helper_labels(self, e: ir.HelperCall, args: list[dict[str, Lab]], fr: Frame) -> dict[str, Lab]:
        raise NotImplementedError

    def raise_point(self, operands: Labels, fr: Frame, line: int) -> None:
        """An operation that may raise ran: later effect calls depend on its operands (and the branch)."""
        extra = combine(operands, fr.control())
        if any(k not in self.stop for k in extra):
            self.stop = combine(self.stop, weak(step(extra, f"may stop the run at line {line}")))

    def labels(self, e: object, fr: Frame, bound: Mapping[str, dict[str, Lab]] | None = None) -> dict[str, Lab]:
        if isinstance(e, ir.Const | ir.RecordVar) or e is None:
            return {}
        if isinstance(e, ir.Name):
            if bound is not None and e.id in bound:
                return bound[e.id]
            return fr.env.get(e.id, {})
        if isinstance(e, ir.ListComp):
            it = self.labels(e.iter, fr, bound)
            inner = dict(bound or {})
            for n in _target_names(e.target):
                inner[n] = step(it, f"{n} (line {e.line})")
            saved = fr.pc
            fr.pc = combine(saved, it)
            try:
                conds = combine(*(self.labels(c, fr, inner) for c in e.conds))
                fr.pc = combine(fr.pc, conds)
                elt = self.labels(e.elt, fr, inner)
            finally:
                fr.pc = saved
            out = combine(it, conds, elt)
            if out:
                self.coverage["ListComp"] += 1
            return out
        if isinstance(e, ir.IfExp | ir.BoolOp):
            return self._choice(e, fr, bound)
        parts = [self.labels(c, fr, bound) for c in children(e)]
        if isinstance(e, ir.EffectCall):
            return self.call_labels(e, parts, fr)
        if isinstance(e, ir.HelperCall):
            out = self.helper_labels(e, parts, fr)
        else:
            out = combine(*parts)
            if isinstance(e, ir.SolverCall) and out:
                self.coverage["SolverCall"] += 1
        if isinstance(e, ir.MethodCall) and e.method in MUTATING_METHODS and isinstance(e.obj, ir.Name):
            name = e.obj.id
            if bound is None or name not in bound:
                grown = combine(fr.env.get(name, {}), *parts[1:], fr.control())
                fr.env[name] = step(grown, f"{name} (line {e.line})") if len(grown) > len(fr.env.get(name, {})) \
                    else grown
        if may_raise(e) and not isinstance(e, ir.HelperCall):
            self.raise_point(combine(*parts), fr, getattr(e, "line", 0))
        if out and not isinstance(e, ir.HelperCall | ir.SolverCall):
            self.coverage[op_name(e)] += 1
        return out


    def _choice(self, e: ir.IfExp | ir.BoolOp, fr: Frame, bound: Mapping[str, dict[str, Lab]] | None) -> dict[str, Lab]:
        """``a if t else b`` / ``a and b``: what is evaluated after the choice runs under its labels."""
        saved = fr.pc
        acc: dict[str, Lab] = {}
        try:
            if isinstance(e, ir.IfExp):
                acc = self.labels(e.test, fr, bound)
                fr.pc = combine(saved, acc)
                acc = combine(acc, self.labels(e.body, fr, bound), self.labels(e.orelse, fr, bound))
            else:
                for v in e.values:
                    acc = combine(acc, self.labels(v, fr, bound))
                    fr.pc = combine(saved, acc)
        finally:
            fr.pc = saved
        if acc:
            self.coverage[op_name(e)] += 1
        return acc


# ------------------------------------------------------------------------------ the static analysis


@dataclass
class _Loop:
    breaks: list[dict[str, dict[str, Lab]]] = field(default_factory=list)
    continues: list[dict[str, dict[str, Lab]]] = field(default_factory=list)


@dataclass
class _Fn:
    returns: dict[str, Lab] | None = None


def join_envs(envs: list[dict[str, dict[str, Lab]]]) -> dict[str, dict[str, Lab]]:
    names = {n for env in envs for n in env}
    return {n: join(*(env.get(n, {}) for env in envs)) for n in names}


def _env_sig(env: Mapping[str, Labels]) -> frozenset[tuple[str, frozenset[tuple[str, bool]]]]:
    return frozenset((n, signature(v)) for n, v in env.items())


class FlowAnalysis(LabelVisitor):
    """Labels at every effect-call site of ``program`` (``sites[site][param]``), a sound over-approximation.

    Every label a run can carry into a parameter (``clauz3.interp.flowtrack``) is in ``sites``; a label
    marked ``must`` is there on every run that makes that call.
    """

    def __init__(self, program: ir.CheckedProgram) -> None:
        super().__init__()
        self.program = program
        self.sites: dict[int, dict[str, dict[str, Lab]]] = {}
        self.calls: dict[int, ir.EffectCall] = {}
        self._depth = 0

    def run(self) -> FlowAnalysis:
        target = self.program.functions[self.program.target]
        self.function(target, [{} for _ in target.params], {})
        return self

    # -------------------------------------------------------------- calls

    def call_labels(self, e: ir.EffectCall, args: list[dict[str, Lab]], fr: Frame) -> dict[str, Lab]:
        eff = self.program.effects.get(e.effect)
        name = short(e.effect)
        ctl = step(combine(fr.control(), self.stop), f"{name} at line {e.line} runs only on that path")
        record: dict[str, dict[str, Lab]] = {}
        passed = dict(zip((p for p, _ in e.args), args, strict=True))
        params = [p.name for p in eff.params] if eff is not None else list(passed)
        for p in params:
            record[p] = step(combine(passed.get(p, {}), ctl), f"{name} {p} (line {e.line})")
        old = self.sites.get(e.site)
        self.sites[e.site] = record if old is None else {p: join(old.get(p, {}), record.get(p, {}))
                                                        for p in set(old) | set(record)}
        self.calls[e.site] = e
        self.raise_point(combine(*args), fr, e.line)
        own = {e.effect: Lab((f"{name}(…) at line {e.line}",), True)}
        return combine(own, *args, fr.control())

    def helper_labels(self, e: ir.HelperCall, args: list[dict[str, Lab]], fr: Frame) -> dict[str, Lab]:
        fn = self.program.functions.get(e.function)
        if fn is None or self._depth > 40:
            # Unknown body: it may call anything — every effect's label, and may stop the run.
            everything = {n: Lab((f"{short(n)} (inside {short(e.function)})",), False) for n in self.program.effects}
            self.raise_point(combine(*args), fr, e.line)
            return combine(everything, *args, fr.control())
        self.raise_point(combine(*args), fr, e.line)
        fn_name = short(fn.name)
        bound = [step(a, f"{p.name} (in {fn_name})") for a, p in zip(args, fn.params, strict=False)]
        self._depth += 1
        try:
            out = self.function(fn, bound, fr.control())
        finally:
            self._depth -= 1
        if out:
            self.coverage["HelperCall"] += 1
        return step(out, f"{fn_name}(…) at line {e.line}") if out else out

    def function(self, fn: ir.Function, args: list[dict[str, Lab]], pc: dict[str, Lab]) -> dict[str, Lab]:
        env = {p.name: a for p, a in zip(fn.params, args, strict=False)}
        fr = Frame(env, dict(pc))
        info = _Fn()
        end = self.block(fn.body, fr, info, None)
        tails: list[dict[str, Lab]] = [] if info.returns is None else [info.returns]
        if end is not None:
            tails.append(fr.control())
        return join(*tails) if tails else {}

    # -------------------------------------------------------------- statements

    def block(self, body: tuple[ir.Stmt, ...], fr: Frame, fn: _Fn, loop: _Loop | None) -> Frame | None:
        for s in body:
            if self.stmt(s, fr, fn, loop) is None:
                return None
        return fr

    def _bind(self, t: ir.Target, labels: dict[str, Lab], fr: Frame, line: int) -> None:
        for n in _target_names(t):
            fr.env[n] = step(labels, f"{n} (line {line})")

    def stmt(self, s: ir.Stmt, fr: Frame, fn: _Fn, loop: _Loop | None) -> Frame | None:
        if isinstance(s, ir.Assign):
            self._bind(s.target, combine(self.labels(s.value, fr), fr.control()), fr, s.line)
        elif isinstance(s, ir.AugAssign):
            value = self.labels(s.value, fr)
            if binop_may_raise(s.op.rstrip("="), s.type):
                self.raise_point(combine(value, fr.env.get(s.name, {})), fr, s.line)
            grown = combine(fr.env.get(s.name, {}), value, fr.control())
            fr.env[s.name] = step(grown, f"{s.name} (line {s.line})")
        elif isinstance(s, ir.SetItem):
            value, index = self.labels(s.value, fr), self.labels(s.index, fr)
            self.raise_point(combine(index, fr.env.get(s.name, {})), fr, s.line)
            grown = combine(fr.env.get(s.name, {}), value, index, fr.control())
            fr.env[s.name] = step(grown, f"{s.name} (line {s.line})")
            if value or index:
                self.coverage["SetItem"] += 1
        elif isinstance(s, ir.ExprStmt):
            self.labels(s.value, fr)
        elif isinstance(s, ir.Return):
            value = self.labels(s.value, fr) if s.value is not None else {}
            out = step(combine(value, fr.control()), f"returned at line {s.line}")
            fn.returns = out if fn.returns is None else join(fn.returns, out)
            return None
        elif isinstance(s, ir.Break | ir.Continue):
            if loop is not None:
                (loop.breaks if isinstance(s, ir.Break) else loop.continues).append(
                    {n: dict(v) for n, v in fr.env.items()})
            return None
        elif isinstance(s, ir.Assert):
            self.raise_point(combine(*(self.labels(e, fr) for e in stmt_exprs(s))), fr, s.line)
        elif isinstance(s, ir.Raise):
            self.raise_point(combine(*(self.labels(e, fr) for e in s.args)), fr, s.line)
            return None
        elif isinstance(s, ir.If):
            return self._if(s, fr, fn, loop)
        elif isinstance(s, ir.For):
            return self._for(s, fr, fn)
        return fr

    def _if(self, s: ir.If, fr: Frame, fn: _Fn, loop: _Loop | None) -> Frame | None:
        test = self.labels(s.test, fr)
        cond = step(test, f"the condition at line {s.line}")
        if test:
            self.coverage["If (implicit)"] += 1
        outer_pc = fr.pc
        if has_exit(s.body) or has_exit(s.orelse):
            # Whether the rest of the function runs depends on the condition.
            fr.sticky = combine(fr.sticky, weak(combine(cond, outer_pc)))
        ends: list[Frame] = []
        for branch in (s.body, s.orelse):
            sub = Frame({n: dict(v) for n, v in fr.env.items()}, combine(outer_pc, cond), dict(fr.sticky))
            end = self.block(branch, sub, fn, loop)
            fr.sticky = combine(fr.sticky, sub.sticky)
            if end is not None:
                ends.append(end)
        if not ends:
            return None
        fr.env = join_envs([e.env for e in ends])
        fr.pc = outer_pc
        return fr

    def _for(self, s: ir.For, fr: Frame, fn: _Fn) -> Frame:
        it = self.labels(s.iter, fr)
        over = step(it, f"the loop at line {s.line}")
        if it:
            self.coverage["For (implicit)"] += 1
        outer_pc = fr.pc
        head = {n: dict(v) for n, v in fr.env.items()}
        last = _Loop()
        for _ in range(200):
            before = (_env_sig(head), signature(self.stop), signature(fr.sticky))
            sub = Frame({n: dict(v) for n, v in head.items()}, combine(outer_pc, over), dict(fr.sticky))
            self._bind(s.target, combine(over, sub.pc), sub, s.line)
            last = _Loop()
            end = self.block(s.body, sub, fn, last)
            fr.sticky = combine(fr.sticky, sub.sticky)
            envs = [head] + ([end.env] if end is not None else []) + last.continues
            head = join_envs(envs)
            if (_env_sig(head), signature(self.stop), signature(fr.sticky)) == before:
                break
        else:  # pragma: no cover - labels are finite, so the loop above reaches its fixpoint
            raise RuntimeError("flow labels did not reach a fixpoint")
        fr.env = join_envs([head, *last.breaks])
        fr.pc = outer_pc
        return fr


def effect_sources(program: ir.CheckedProgram) -> dict[str, str]:
    """Each effect's words for what it reads (``reads_data``), else its short name."""
    return {n: (e.reads_data or short(n)) for n, e in program.effects.items()}


def forbidden(spec: ir.FlowSpec, labels: Labels) -> list[str]:
    """The labels of ``labels`` the spec does not allow, sorted."""
    if spec.mode == "never":
        return sorted(k for k in labels if k in spec.sources)
    return sorted(k for k in labels if k not in spec.sources)


def describe_path(lab: Lab) -> str:
    return " → ".join(lab.path)


def flow_sentence(spec: ir.FlowSpec, words: Callable[[str], str] = short) -> str:
    """The card's plain words for a flow guarantee."""
    into = _sinks_text(spec)
    if spec.mode == "never":
        src = _or([words(s) for s in spec.sources])
        return f"Nothing read by {src} reaches {into}."
    head = f"{into[:1].upper()}{into[1:]}"
    if not spec.sources:
        return f"{head}: only from the program itself, never from anything an effect returned."
    return f"{head}: only from what {_or([words(s) for s in spec.sources])} returned, or from the program itself."


def _sinks_text(spec: ir.FlowSpec) -> str:
    return _or([f"{short(e)}'s {p}" for e, p in spec.sinks])


def _or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
