"""Statement execution, inlined helper calls and solver-modelled calls.

Effect calls go to an :class:`EffectGateway` (effects.py implements INT-4); a machine without one
is *pure* and is what the monitor and condition checks use.
"""

from __future__ import annotations

import builtins as py_builtins
import importlib
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TextIO

from clauz3.interp import semantics as sem
from clauz3.interp.errors import (
    BreakSignal,
    ContinueSignal,
    ProgramError,
    ReturnSignal,
    RunStop,
    SoundnessViolation,
    _Flow,
)
from clauz3.interp.evaluate import BINOPS, Evaluator
from clauz3.interp.values import MissingField, render, scalar_class, to_plain, untag
from clauz3.language import ir


class EffectGateway(Protocol):
    def call(self, machine: Machine, expr: ir.EffectCall, env: dict[str, Any]) -> Any: ...


SOUNDNESS_TAIL = "This is a clauz3 bug, not a problem in your program; nothing after this point ran."


def resolve_dotted(name: str) -> Any:
    """Import ``pkg.mod.attr`` (longest importable module prefix, then attributes)."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(f"cannot resolve {name}")


def _same_value(a: Any, b: Any) -> bool:
    """Exact equality for solver-model comparison: same class, equal value (NaN equals NaN)."""
    if scalar_class(a) is not scalar_class(b):
        return False
    if isinstance(a, float) and a != a:
        return bool(b != b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(sem.values_equal(a, b))


class Machine(Evaluator):
    """Executes functions of one checked program."""

    def __init__(
        self,
        program: ir.CheckedProgram,
        *,
        stdout: TextIO,
        step_budget: int | None,
        gateway: EffectGateway | None = None,
        solver_functions: Mapping[str, Callable[..., Any]] | None = None,
    ) -> None:
        super().__init__(program, stdout=stdout, step_budget=step_budget)
        self.gateway = gateway
        self.solver_functions = dict(solver_functions or {})
        self._stmt_dispatch: dict[type, Callable[[Any, dict[str, Any]], None]] = {
            ir.Assign: self._assign,
            ir.AugAssign: self._augassign,
            ir.SetItem: self._setitem,
            ir.ExprStmt: self._exprstmt,
            ir.Return: self._return,
            ir.If: self._if,
            ir.For: self._for,
            ir.Break: self._break,
            ir.Continue: self._continue,
            ir.Assert: self._assert,
            ir.Raise: self._raise,
            ir.Pass: self._pass,
        }
        self._pure: Machine | None = None

    # ------------------------------------------------------------------ functions

    def run_function(self, fn: ir.Function, args: list[Any]) -> Any:
        """Run ``fn`` with positional ``args`` (one per parameter, defaults already filled)."""
        env = {p.name: a for p, a in zip(fn.params, args, strict=True)}
        saved_file = self.file
        self.file = fn.file or self.program.path
        try:
            if fn.requires:
                self.check_conditions(fn.requires, env, fn.name, fn.line, "precondition")
            try:
                self.exec_block(fn.body, env)
                result = None
            except ReturnSignal as ret:
                result = ret.value
            if fn.ensures:
                self.check_conditions(fn.ensures, {**env, "result": result}, fn.name, fn.line, "postcondition")
            return result
        finally:
            self.file = saved_file

    def pure(self) -> Machine:
        """A machine for conditions and predicates: no effects, no step budget, same program."""
        if self._pure is None:
            if self.gateway is None and self.step_budget is None:
                self._pure = self
            else:
                self._pure = Machine(
                    self.program, stdout=self.stdout, step_budget=None, solver_functions=self.solver_functions
                )
        return self._pure

    def holds(self, expr: Any, env: dict[str, Any]) -> bool:
        """Evaluate a condition on the pure machine (exceptions count as 'does not hold')."""
        pure = self.pure()
        try:
            return pure.truth(pure.eval(expr, env))
        except MissingField:
            raise
        except RunStop:
            return False

    def check_conditions(
        self, conds: tuple[ir.Condition, ...], env: dict[str, Any], owner: str, line: int, kind: str
    ) -> None:
        for cond in conds:
            if not self.holds(cond.expr, env):
                short = owner.rsplit(".", 1)[-1]
                raise SoundnessViolation(
                    f"clauz3 stopped this run: {short} at line {line} would break the proved {kind} "
                    f"{cond.source}. {SOUNDNESS_TAIL}",
                    kind,
                    detail=cond.source,
                )

    def eval_args(self, exprs: tuple[Any, ...], order: tuple[int, ...], env: dict[str, Any]) -> list[Any]:
        """Arguments evaluated in the order the call writes them (``order``), returned in parameter order."""
        values: list[Any] = [None] * len(exprs)
        for k in (*order, *[k for k in range(len(exprs)) if k not in order]):
            values[k] = self.eval(exprs[k], env)
        return values

    def call_helper(self, expr: ir.HelperCall, env: dict[str, Any]) -> Any:
        fn = self.program.functions[expr.function]
        args = self.eval_args(expr.args, expr.order, env)
        return self.run_function(fn, args)

    def call_solver(self, expr: ir.SolverCall, env: dict[str, Any]) -> Any:
        args = self.eval_args(expr.args, expr.order, env)
        model = self.program.functions.get(expr.model)
        expected = self.pure().run_function(model, list(args)) if model is not None else None
        real = self.solver_functions.get(expr.real)
        if real is None:
            real = resolve_dotted(expr.real)
        try:
            actual = sem.from_plain(real(*[to_plain(a) for a in args]))
        except RunStop:
            raise
        except Exception as exc:
            raise self.fail(exc, expr.line) from exc
        if model is not None and not _same_value(actual, untag(expected)):
            raise SoundnessViolation(
                f"clauz3 stopped this run: {expr.real} at line {expr.line} returned {render(actual)} but its "
                f"proved model {expr.model} gives {render(expected)}. {SOUNDNESS_TAIL}",
                "solver_model",
                detail=expr.real,
            )
        return actual

    def call_effect(self, expr: ir.EffectCall, env: dict[str, Any]) -> Any:
        if self.gateway is None:
            return super().call_effect(expr, env)
        return self.gateway.call(self, expr, env)

    # ------------------------------------------------------------------ statements

    def exec_block(self, body: tuple[Any, ...], env: dict[str, Any]) -> None:
        for stmt in body:
            self.step(stmt.line)
            try:
                self._stmt_dispatch[type(stmt)](stmt, env)
            except (RunStop, _Flow, MissingField):
                raise
            except Exception as exc:
                raise self.fail(exc, stmt.line) from exc

    def _assign(self, s: ir.Assign, env: dict[str, Any]) -> None:
        self.bind(s.target, self.eval(s.value, env), env)

    def _augassign(self, s: ir.AugAssign, env: dict[str, Any]) -> None:
        if s.name not in env:
            raise UnboundLocalError(f"cannot access local variable '{s.name}' where it is not associated with a value")
        op = s.op[:-1] if s.op.endswith("=") else s.op
        right = untag(self.eval(s.value, env))
        env[s.name] = BINOPS[op](untag(env[s.name]), right)

    def _setitem(self, s: ir.SetItem, env: dict[str, Any]) -> None:
        # CPython's order: the value, then the subscript; then the named collection (value semantics).
        value = self.eval(s.value, env)
        index = untag(self.eval(s.index, env))
        if s.name not in env:
            raise UnboundLocalError(f"cannot access local variable '{s.name}' where it is not associated with a value")
        target = self.mutable(env, s.name)
        if isinstance(target, dict):
            sem.dict_store(target, index, value)
        else:
            target[index] = value

    def _exprstmt(self, s: ir.ExprStmt, env: dict[str, Any]) -> None:
        self.eval(s.value, env)

    def _return(self, s: ir.Return, env: dict[str, Any]) -> None:
        raise ReturnSignal(None if s.value is None else self.eval(s.value, env))

    def _if(self, s: ir.If, env: dict[str, Any]) -> None:
        if self.truth(self.eval(s.test, env)):
            self.exec_block(s.body, env)
        else:
            self.exec_block(s.orelse, env)

    def _for(self, s: ir.For, env: dict[str, Any]) -> None:
        # A snapshot taken at loop entry: the body may change the collection (it changes a copy anyway).
        for item in list(untag(self.eval(s.iter, env))):
            self.bind(s.target, item, env)
            try:
                self.exec_block(s.body, env)
            except BreakSignal:
                break
            except ContinueSignal:
                continue

    def _break(self, s: ir.Break, env: dict[str, Any]) -> None:
        raise BreakSignal()

    def _continue(self, s: ir.Continue, env: dict[str, Any]) -> None:
        raise ContinueSignal()

    def _assert(self, s: ir.Assert, env: dict[str, Any]) -> None:
        if not self.truth(self.eval(s.test, env)):
            if s.msg is None:
                raise AssertionError()
            raise AssertionError(untag(self.eval(s.msg, env)))

    def _raise(self, s: ir.Raise, env: dict[str, Any]) -> None:
        cls = getattr(py_builtins, s.exception, None)
        if not (isinstance(cls, type) and issubclass(cls, Exception)):
            raise ProgramError(f"{self.file}:{s.line}: cannot raise {s.exception}")
        raise cls(*[untag(self.eval(a, env)) for a in s.args])

    def _pass(self, s: ir.Pass, env: dict[str, Any]) -> None:
        return None
