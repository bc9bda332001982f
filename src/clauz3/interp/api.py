"""Entry point of the interpreter: run a checked program with the real trusted functions (01 §5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from clauz3.interp.effects import Gateway
from clauz3.interp.errors import (
    EffectUnavailable,
    InterpError,
    ProgramError,
    RunStop,
    SoundnessViolation,
    StepBudgetExceeded,
    TrustedContractViolation,
)
from clauz3.interp.execute import SOUNDNESS_TAIL, Machine
from clauz3.interp.flowtrack import LabelMachine, wants_labels
from clauz3.interp.monitor import Monitor
from clauz3.interp.report import write_soundness_report
from clauz3.interp.trace import CallRecord, Trace
from clauz3.interp.values import to_plain
from clauz3.language import ir

OUTCOMES = ("completed", "runtime_error", "trusted_contract_violation", "soundness_violation")


class IRHashMismatch(InterpError, ValueError):
    """INT-1: the interpreter refuses to start when the program is not the one that was proved."""


@dataclass
class ExecutionResult:
    """How one run ended (03 §12.1 reason vocabulary).

    ``trace`` holds the call records in order (1-based ``index``); ``error`` the one-line message
    (with ``file:line`` for program faults); ``report_path`` the soundness report, when written;
    ``violation`` the soundness kind (``guarantee``, ``precondition``, ``postcondition``,
    ``solver_model``) and ``guarantee`` the broken guarantee, when there is one.
    """

    outcome: str
    return_value: Any = None
    trace: list[CallRecord] = field(default_factory=list)
    error: str | None = None
    report_path: str | None = None
    violation: str | None = None
    guarantee: ir.Guarantee | None = None
    steps: int = 0
    # Issue 10 family 8: a run that ended before the target returned says why (``ended_early``) and how
    # each end-state guarantee stood on the state it reached (``end_state``: guarantee, held True/False/None).
    ended_early: str | None = None
    end_state: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.outcome == "completed"

    def trace_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.trace]


EARLY_REASONS = ("step_budget", "trusted_function_raised", "trusted_contract_violation", "soundness_violation",
                 "effect_unavailable", "program_error", "memory")


def early_reason(stop: RunStop) -> str:
    """Why a run ended before its target returned, as one of :data:`EARLY_REASONS`."""
    if isinstance(stop, StepBudgetExceeded):
        return "step_budget"
    if isinstance(stop, TrustedContractViolation):
        return "trusted_contract_violation"
    if isinstance(stop, SoundnessViolation):
        return "soundness_violation"
    if isinstance(stop, EffectUnavailable):
        return "effect_unavailable"
    if isinstance(stop, ProgramError) and " trusted function " in stop.message:
        return "trusted_function_raised"
    if isinstance(stop, ProgramError) and isinstance(stop.exc, MemoryError):
        return "memory"
    return "program_error"


def end_state_entry(g: ir.Guarantee, held: bool | None) -> dict[str, Any]:
    return {"guarantee": g.bound_call, "expression": g.expression, "helper": g.helper.rsplit(".", 1)[-1],
            "held": held}


def execute(
    program: ir.CheckedProgram,
    layer_effects: Mapping[str, Callable[..., Any]],
    *,
    guarantees_to_monitor: Sequence[ir.Guarantee] | None = None,
    step_budget: int = 1_000_000,
    stdout: TextIO,
    ir_hash: str | None = None,
    arguments: Mapping[str, Any] | None = None,
    solver_functions: Mapping[str, Callable[..., Any]] | None = None,
    write_report: bool = True,
) -> ExecutionResult:
    """Run ``program.target``.

    ``layer_effects`` maps qualified effect names to the layer's decorated functions (or stubs with
    the same signature). ``guarantees_to_monitor`` defaults to every guarantee and required contract
    of the program (MON-4: the caller cannot switch the monitor off, only narrow it in tests).
    ``arguments`` overrides target parameter defaults (differential testing); ``solver_functions``
    maps ``SolverCall.real`` names to callables (else they are imported). ``write_report=False``
    skips the MON-3 report file (differential testing reports findings itself).
    """
    if step_budget < 1:
        raise ValueError("step budget must be at least 1")
    # ``ir_hash`` is what binds this run to its proof (INT-1): the worker passes the hash of the IR the
    # prover and the receipt covered, and the program is hashed here, immediately before it runs, so
    # nothing between the proof and this line can swap it. That check is never skipped or cached on
    # the (mutable) program. Without a proved hash (differential tests run one program thousands of
    # times) there is nothing to bind, and the hash only names the program in a soundness report:
    # it is computed then, not on every run.
    if ir_hash is not None:
        actual_hash = ir.ir_sha256(program)
        if ir_hash != actual_hash:
            raise IRHashMismatch(f"refusing to run: IR hash {actual_hash} differs from the proved {ir_hash}")
    guarantees = tuple(program.guarantees if guarantees_to_monitor is None else guarantees_to_monitor)

    trace = Trace(program)
    kind = LabelMachine if wants_labels(guarantees) else Machine  # issue 20: flow guarantees need labels
    machine = kind(program, stdout=stdout, step_budget=step_budget, solver_functions=solver_functions)
    monitor = Monitor(machine, program, guarantees)
    machine.gateway = Gateway(program, layer_effects, monitor, trace)

    def finish(outcome: str, error: str | None, value: Any = None, stop: RunStop | None = None,
               early: str | None = None) -> ExecutionResult:
        result = ExecutionResult(outcome, to_plain(value), list(trace.records), error, steps=machine.steps)
        if early is not None:
            result.ended_early = early
            result.end_state = [end_state_entry(g, held) for g, held in monitor.end_state(trace)]
        if isinstance(stop, SoundnessViolation):
            result.violation = stop.kind
            result.guarantee = stop.guarantee
            if write_report:
                path = write_soundness_report(
                    program, trace, message=stop.message, kind=stop.kind, guarantee=stop.guarantee,
                    detail=stop.detail, ir_hash=ir_hash if ir_hash is not None else ir.ir_sha256(program),
                )
                result.report_path = str(path)
        return result

    target = program.functions.get(program.target)
    if target is None:
        return finish("runtime_error", f"{program.path}: target {program.target} is missing from the program")
    given = dict(arguments or {})
    args: list[Any] = []
    for p in target.params:
        if p.name in given:
            args.append(given.pop(p.name))
        elif p.default is not None:
            args.append(machine.const_value(p.default))
        else:
            return finish("runtime_error", f"{target.file}:{target.line}: target parameter {p.name} has no value")
    if given:
        return finish("runtime_error", f"{target.file}:{target.line}: unknown target argument {sorted(given)[0]}")

    try:
        value = machine.run_function(target, args)
    except RunStop as stop:
        return finish(stop.outcome, stop.message, stop=stop, early=early_reason(stop))
    except RecursionError as exc:  # defensive: the checker bounds nesting, so this is a program fault
        err = ProgramError(f"{program.path}: RecursionError: {exc}")
        return finish("runtime_error", err.message, early="program_error")
    except MemoryError:  # outside the program's semantics: the effects so far happened, the rest did not
        return finish("runtime_error", f"{program.path}: MemoryError: the run ran out of memory", early="memory")

    broken = monitor.final(trace)
    if broken is not None:
        violation = SoundnessViolation(
            f"clauz3 stopped this run: the finished run breaks the proved guarantee {broken.bound_call}. "
            f"{SOUNDNESS_TAIL}",
            "guarantee", guarantee=broken,
        )
        return finish(violation.outcome, violation.message, value, stop=violation)
    return finish("completed", None, value)
