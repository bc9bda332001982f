"""Differential runs of one fully proved program (01 DIF-2, DIF-3).

Effects are stubs with the real functions' signatures returning sampled results that satisfy the
effect's ``ensures`` (checked by the interpreter's evaluator); real bodies never run. The
interpreter checks preconditions and the monitor watches every guarantee, exactly as in a real run;
any stop is a finding, because the proof said none can happen.
"""

from __future__ import annotations

import inspect
import io
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clauz3.difftest.sample import Sampler, program_literals
from clauz3.interp import execute
from clauz3.interp.effects import Gateway, RowClasses
from clauz3.interp.execute import Machine
from clauz3.language import ir

MAX_REJECTIONS = 100
FINDING_KINDS = ("guarantee_violation", "precondition_violation", "exception", "unexpected_call",
                 "assumption_mismatch")


class Incomplete(BaseException):
    """No sample satisfying an effect's ``ensures`` was found (a BaseException so the
    interpreter's handling of trusted-function exceptions does not swallow it)."""


@dataclass
class Finding:
    kind: str
    path: str
    run: int
    message: str

    def line(self) -> str:
        return f"{self.kind}: {self.path}: run {self.run}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "run": self.run, "message": self.message}


@dataclass
class ProgramReport:
    path: str
    runs: int = 0
    incomplete: int = 0
    findings: list[Finding] = field(default_factory=list)


def signature_from_ir(effect: ir.Effect) -> inspect.Signature:
    kinds = {
        "positional_only": inspect.Parameter.POSITIONAL_ONLY,
        "positional_or_keyword": inspect.Parameter.POSITIONAL_OR_KEYWORD,
        "keyword_only": inspect.Parameter.KEYWORD_ONLY,
    }
    params = [
        inspect.Parameter(p.name, kinds[p.kind],
                          default=inspect.Parameter.empty if p.default is None else p.default.value)
        for p in effect.params
    ]
    return inspect.Signature(params)


class StubFactory:
    """Builds the effect stubs of one run."""

    def __init__(self, program: ir.CheckedProgram, real: Mapping[str, Callable[..., Any]], sampler: Sampler) -> None:
        self.program = program
        self.real = real
        self.sampler = sampler
        self.machine = Machine(program, stdout=io.StringIO(), step_budget=None)
        self.rows = RowClasses(program)
        self.converter = Gateway(program, {}, monitor=None, trace=None)  # type: ignore[arg-type]  # the difftest converts values only; it never records, so no monitor or trace

    def _schema_of(self, cls: Any) -> str | None:
        return next((name for name in self.program.rows if self.rows.get(name) is cls), None)

    def result_type(self, effect: ir.Effect, arguments: Mapping[str, Any]) -> tuple[Any, Any]:
        if effect.row_param is not None:
            cls = arguments.get(effect.row_param)
            schema = self._schema_of(cls)
            if schema is not None:
                return ir.TList(ir.TRow(schema)), cls
        t = effect.returns
        inner = t.elem if isinstance(t, ir.TList) else t
        if isinstance(inner, ir.TRow):
            return t, self.rows.get(inner.schema)
        return t, None

    def stub(self, effect: ir.Effect) -> Callable[..., Any]:
        real = self.real.get(effect.name)
        sig = inspect.signature(real) if real is not None else signature_from_ir(effect)

        def stub(*args: Any, **kwargs: Any) -> Any:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            rtype, row_class = self.result_type(effect, arguments)
            for _ in range(MAX_REJECTIONS):
                value = self.sampler.value(rtype, row_class)
                if self.satisfies(effect, arguments, value):
                    return value
            raise Incomplete(f"no result of {effect.short} satisfying its ensures after {MAX_REJECTIONS} samples")

        stub.__signature__ = sig  # type: ignore[attr-defined]  # a stub function carries the effect's signature for inspect
        stub.__name__ = effect.short
        return stub

    def satisfies(self, effect: ir.Effect, arguments: Mapping[str, Any], value: Any) -> bool:
        if not effect.ensures:
            return True
        result = self.converter.incoming(value, 0)
        env = {**arguments, "result": result}
        return all(self.machine.holds(c.expr, dict(env)) for c in effect.ensures)


def classify(outcome: str, violation: str | None) -> str | None:
    if outcome == "completed":
        return None
    if outcome == "soundness_violation":
        if violation == "guarantee":
            return "guarantee_violation"
        if violation == "precondition":
            return "precondition_violation"
        return "assumption_mismatch"
    if outcome == "runtime_error":
        return "exception"
    return "assumption_mismatch"


def run_program(
    program: ir.CheckedProgram,
    real_effects: Mapping[str, Callable[..., Any]],
    *,
    path: str,
    runs: int,
    seed: int,
    max_rows: int,
    guarantees: Sequence[ir.Guarantee] | None = None,
    step_budget: int = 1_000_000,
) -> ProgramReport:
    """``runs`` differential runs of ``program``; deterministic in (seed, path, run index)."""
    report = ProgramReport(path)
    target = program.functions[program.target]
    literals = program_literals(program)
    for i in range(1, runs + 1):
        rng = random.Random(f"{seed}|{path}|{i}")
        sampler = Sampler(rng, program, max_rows, literals)
        factory = StubFactory(program, real_effects, sampler)
        stubs = {name: factory.stub(effect) for name, effect in sorted(program.effects.items())}
        arguments = {p.name: sampler.value(p.type) for p in target.params if not isinstance(p.type, ir.TObject)}
        report.runs += 1
        try:
            result = execute(program, stubs, guarantees_to_monitor=guarantees, stdout=io.StringIO(),
                             arguments=arguments, step_budget=step_budget, write_report=False)
        except Incomplete:
            report.incomplete += 1
            continue
        kind = classify(result.outcome, result.violation)
        if kind is not None:
            report.findings.append(Finding(kind, path, i, result.error or result.outcome))
    return report
