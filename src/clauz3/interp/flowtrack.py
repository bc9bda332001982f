"""Run-time data-flow labels (issue 20): the interpreter tracks, beside every value, the effects it derives from.

:class:`LabelMachine` is the interpreter with a shadow label environment per function activation. It
uses the expression rule of :mod:`clauz3.language.flowlabels` (so the run and the proof agree on what an
operation propagates) on the path the run really takes, and covers what that path does not show:

* a branch whose condition carries labels gives them to every name the branch *not taken* may assign
  (its old value now says which way the run went), and to everything assigned in the branch taken;
* a loop over a labelled collection gives its labels to every name the body may assign, even when it
  runs zero times, and to the loop variable;
* a branch that may leave early (return, break, continue, raise) puts its labels on the rest of the
  function; an operation that may raise puts its operands' labels on every later effect call.

At each effect call :meth:`LabelMachine.call_labels_now` gives the labels of every parameter (its
argument's labels, plus the branch and early-exit labels: an effect called under a condition carries it),
which the monitor (``FlowState``) checks before the call happens.
"""

from __future__ import annotations

from typing import Any

from clauz3.interp.errors import BreakSignal, ContinueSignal, ReturnSignal
from clauz3.interp.execute import Machine
from clauz3.interp.values import untag
from clauz3.language import ir
from clauz3.language.flowlabels import (
    Frame,
    Lab,
    LabelVisitor,
    assigned,
    binop_may_raise,
    children,
    combine,
    has_exit,
    may_raise,
    may_stop,
    short,
    step,
    weak,
)


class _Activation:
    __slots__ = ("bound", "cache", "frame", "returns")

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.cache: dict[int, dict[str, Lab]] = {}  # id(call node) -> labels of its results so far
        self.bound: dict[str, dict[str, Lab]] = {}  # comprehension variables in scope
        self.returns: dict[str, Lab] | None = None


class RuntimeLabels(LabelVisitor):
    """The label state of one run: activations, the run-wide stop labels, and every call's labels."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[_Activation] = []
        self.calls: list[tuple[int, str, dict[str, dict[str, Lab]]]] = []  # (site, effect, param labels)

    @property
    def top(self) -> _Activation:
        return self.stack[-1]

    def call_labels(self, e: ir.EffectCall, args: list[dict[str, Lab]], fr: Frame) -> dict[str, Lab]:
        return self.top.cache.get(id(e), {})

    def helper_labels(self, e: ir.HelperCall, args: list[dict[str, Lab]], fr: Frame) -> dict[str, Lab]:
        return self.top.cache.get(id(e), {})

    def of(self, e: object) -> dict[str, Lab]:
        act = self.top
        return self.labels(e, act.frame, act.bound or None)

    def remember(self, e: object, labels: dict[str, Lab]) -> None:
        act = self.top
        act.cache[id(e)] = combine(act.cache.get(id(e), {}), labels)

    def upgrade(self, names: set[str], labels: dict[str, Lab]) -> None:
        if not labels:
            return
        env = self.top.frame.env
        for n in names:
            env[n] = combine(env.get(n, {}), labels)


class LabelMachine(Machine):
    """The interpreter with run-time labels (used when a monitored guarantee is a flow guarantee)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.flow = RuntimeLabels()
        self._pending: Frame | None = None
        self._calls: list[ir.EffectCall] = []
        self._assigned: dict[int, set[str]] = {}
        self._stops: dict[int, bool] = {}
        self._last_return: dict[str, Lab] = {}

    # ------------------------------------------------------------------ helpers

    def _names(self, body: tuple[ir.Stmt, ...]) -> set[str]:
        key = id(body)
        if key not in self._assigned:
            self._assigned[key] = assigned(body)
        return self._assigned[key]

    def _may_stop(self, body: tuple[ir.Stmt, ...]) -> bool:
        key = id(body)
        if key not in self._stops:
            self._stops[key] = may_stop(body)
        return self._stops[key]

    def call_labels_now(self) -> dict[str, dict[str, Lab]] | None:
        """Labels of every parameter of the effect call being made (its arguments are evaluated)."""
        if not self._calls or not self.flow.stack:
            return None
        e = self._calls[-1]
        fl = self.flow
        fr = fl.top.frame
        name = short(e.effect)
        ctl = step(combine(fr.control(), fl.stop), f"{name} at line {e.line} runs only on that path")
        passed = {p: fl.of(a) for p, a in e.args}
        eff = self.program.effects.get(e.effect)
        params = [p.name for p in eff.params] if eff is not None else list(passed)
        return {p: step(combine(passed.get(p, {}), ctl), f"{name} {p} (line {e.line})") for p in params}

    # ------------------------------------------------------------------ functions and calls

    def run_function(self, fn: ir.Function, args: list[Any]) -> Any:
        frame = self._pending or Frame({p.name: {} for p in fn.params})
        self._pending = None
        act = _Activation(frame)
        self.flow.stack.append(act)
        try:
            result = super().run_function(fn, args)
        finally:
            self.flow.stack.pop()
        self._last_return = act.returns if act.returns is not None else frame.control()
        return result

    def call_helper(self, expr: ir.HelperCall, env: dict[str, Any]) -> Any:
        fn = self.program.functions[expr.function]
        args = self.eval_args(expr.args, expr.order, env)
        fl = self.flow
        labels = [fl.of(a) for a in expr.args]
        fl.raise_point(combine(*labels), fl.top.frame, expr.line)
        fn_name = short(fn.name)
        self._pending = Frame({p.name: step(a, f"{p.name} (in {fn_name})")
                               for a, p in zip(labels, fn.params, strict=False)}, fl.top.frame.control())
        result = self.run_function(fn, args)
        out = self._last_return
        if out:
            fl.coverage["HelperCall"] += 1
        fl.remember(expr, step(out, f"{fn_name}(…) at line {expr.line}") if out else out)
        return result

    def call_effect(self, expr: ir.EffectCall, env: dict[str, Any]) -> Any:
        if self.gateway is None or not self.flow.stack:
            return super().call_effect(expr, env)
        self._calls.append(expr)
        try:
            result = self.gateway.call(self, expr, env)
            labels = self.call_labels_now() or {}
        finally:
            self._calls.pop()
        fl = self.flow
        fl.calls.append((expr.site, expr.effect, labels))
        args = [fl.of(a) for _, a in expr.args]
        own = {expr.effect: Lab((f"{short(expr.effect)}(…) at line {expr.line}",), True)}
        fl.remember(expr, combine(own, *args, fl.top.frame.control()))
        return result

    def eval(self, expr: ir.Expr, env: dict[str, Any]) -> Any:
        value = super().eval(expr, env)
        if self.flow.stack and may_raise(expr) and not isinstance(expr, ir.HelperCall):
            fl = self.flow
            fl.raise_point(combine(*(fl.of(c) for c in children(expr))), fl.top.frame, expr.line)
        return value

    # ------------------------------------------------------------------ expressions that choose

    def _ifexp(self, e: ir.IfExp, env: dict[str, Any]) -> Any:
        if not self.flow.stack:
            return super()._ifexp(e, env)
        cond = self.truth(self.eval(e.test, env))
        fr = self.flow.top.frame
        saved = fr.pc
        fr.pc = combine(saved, self.flow.of(e.test))
        try:
            return self.eval(e.body, env) if cond else self.eval(e.orelse, env)
        finally:
            fr.pc = saved

    def _boolop(self, e: ir.BoolOp, env: dict[str, Any]) -> Any:
        if not self.flow.stack:
            return super()._boolop(e, env)
        fr = self.flow.top.frame
        saved = fr.pc
        value: Any = None
        try:
            for sub in e.values:
                value = self.eval(sub, env)
                fr.pc = combine(fr.pc, self.flow.of(sub))
                if e.op == "and" and not self.truth(value):
                    return value
                if e.op == "or" and self.truth(value):
                    return value
            return value
        finally:
            fr.pc = saved

    def _listcomp(self, e: ir.ListComp, env: dict[str, Any]) -> Any:
        if not self.flow.stack:
            return super()._listcomp(e, env)
        fl = self.flow
        act = fl.top
        iterable = list(untag(self.eval(e.iter, env)))
        it = fl.of(e.iter)
        names = self._names_of(e.target)
        saved = {n: env[n] for n in names if n in env}
        saved_bound, saved_pc = act.bound, act.frame.pc
        act.bound = {**saved_bound, **{n: step(it, f"{n} (line {e.line})") for n in names}}
        out: list[Any] = []
        try:
            for item in iterable:
                self.bind(e.target, item, env)
                act.frame.pc = combine(saved_pc, it)
                keep = True
                for c in e.conds:
                    keep = self.truth(self.eval(c, env))
                    act.frame.pc = combine(act.frame.pc, fl.of(c))
                    if not keep:
                        break
                if keep:
                    out.append(self.eval(e.elt, env))
        finally:
            act.bound, act.frame.pc = saved_bound, saved_pc
            for n in names:
                env.pop(n, None)
            env.update(saved)
        return out

    # ------------------------------------------------------------------ statements

    def _bind_labels(self, target: ir.Target, labels: dict[str, Lab], line: int) -> None:
        env = self.flow.top.frame.env
        for n in self._names_of(target):
            env[n] = step(labels, f"{n} (line {line})")

    def _assign(self, s: ir.Assign, env: dict[str, Any]) -> None:
        super()._assign(s, env)
        if self.flow.stack:
            fl = self.flow
            self._bind_labels(s.target, combine(fl.of(s.value), fl.top.frame.control()), s.line)

    def _augassign(self, s: ir.AugAssign, env: dict[str, Any]) -> None:
        super()._augassign(s, env)
        if self.flow.stack:
            fl = self.flow
            fr = fl.top.frame
            value = fl.of(s.value)
            if binop_may_raise(s.op.rstrip("="), s.type):
                fl.raise_point(combine(value, fr.env.get(s.name, {})), fr, s.line)
            fr.env[s.name] = step(combine(fr.env.get(s.name, {}), value, fr.control()), f"{s.name} (line {s.line})")

    def _setitem(self, s: ir.SetItem, env: dict[str, Any]) -> None:
        super()._setitem(s, env)
        if self.flow.stack:
            fl = self.flow
            fr = fl.top.frame
            value, index = fl.of(s.value), fl.of(s.index)
            if value or index:
                fl.coverage["SetItem"] += 1
            fl.raise_point(combine(index, fr.env.get(s.name, {})), fr, s.line)
            fr.env[s.name] = step(combine(fr.env.get(s.name, {}), value, index, fr.control()),
                                  f"{s.name} (line {s.line})")

    def _exprstmt(self, s: ir.ExprStmt, env: dict[str, Any]) -> None:
        super()._exprstmt(s, env)
        if self.flow.stack:
            self.flow.of(s.value)  # a mutating method call grows its list's labels

    def _return(self, s: ir.Return, env: dict[str, Any]) -> None:
        if not self.flow.stack:
            return super()._return(s, env)
        value = None if s.value is None else self.eval(s.value, env)
        fl = self.flow
        labels = fl.of(s.value) if s.value is not None else {}
        fl.top.returns = step(combine(labels, fl.top.frame.control()), f"returned at line {s.line}")
        raise ReturnSignal(value)

    def _assert(self, s: ir.Assert, env: dict[str, Any]) -> None:
        super()._assert(s, env)
        if self.flow.stack:
            fl = self.flow
            fl.raise_point(fl.of(s.test), fl.top.frame, s.line)

    def _if(self, s: ir.If, env: dict[str, Any]) -> None:
        if not self.flow.stack:
            return super()._if(s, env)
        cond = self.truth(self.eval(s.test, env))
        fl = self.flow
        fr = fl.top.frame
        test = step(fl.of(s.test), f"the condition at line {s.line}")
        taken, other = (s.body, s.orelse) if cond else (s.orelse, s.body)
        outer = fr.pc
        inner = combine(outer, test)
        if test:
            fl.coverage["If (implicit)"] += 1
            fl.upgrade(self._names(other), weak(inner))
            if self._may_stop(other):  # the branch not taken could have stopped the run: later calls say so
                fl.raise_point(test, fr, s.line)
        if has_exit(s.body) or has_exit(s.orelse):
            fr.sticky = combine(fr.sticky, weak(inner))
        fr.pc = inner
        try:
            self.exec_block(taken, env)
        finally:
            fr.pc = outer
        return None

    def _for(self, s: ir.For, env: dict[str, Any]) -> None:
        if not self.flow.stack:
            return super()._for(s, env)
        items = list(untag(self.eval(s.iter, env)))
        fl = self.flow
        fr = fl.top.frame
        over = step(fl.of(s.iter), f"the loop at line {s.line}")
        outer = fr.pc
        inner = combine(outer, over)
        if over:
            fl.coverage["For (implicit)"] += 1
            fl.upgrade(self._names(s.body), weak(inner))
            if self._may_stop(s.body):  # whether (and how often) the body ran, which could stop the run
                fl.raise_point(over, fr, s.line)
        fr.pc = inner
        try:
            for item in items:
                self.bind(s.target, item, env)
                self._bind_labels(s.target, combine(over, fr.pc), s.line)
                try:
                    self.exec_block(s.body, env)
                except BreakSignal:
                    break
                except ContinueSignal:
                    continue
        finally:
            fr.pc = outer
        return None


def wants_labels(guarantees: tuple[ir.Guarantee, ...] | list[ir.Guarantee]) -> bool:
    """Whether any guarantee needs run-time labels (a flow guarantee, alone or in a conjunction)."""
    def has(spec: object) -> bool:
        if isinstance(spec, ir.FlowSpec):
            return True
        return isinstance(spec, ir.ConjunctionSpec) and any(has(s) for s in spec.specs)
    return any(has(g.spec) for g in guarantees)
