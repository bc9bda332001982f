"""The 01 §4.5 result record: per-obligation verdicts, coverage, and their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field

from clauz3.prover.entry import CoverageRecord, JsonObject, ObligationRecord


@dataclass
class ObligationResult:
    index: int
    kind: str  # guarantee | required | precondition | postcondition | assertion | exception
    subject: str
    conclusion: str  # proved | violated | unknown
    line: int
    column: int
    source_kind: str
    reason: str | None = None
    result: str = ""
    expression: str | None = None
    predicate: str | None = None
    call: str | None = None
    effect: str | None = None
    module: str | None = None
    cls: str | None = None
    helper: str | None = None
    counterexample: JsonObject | None = None
    elapsed_ms: int = 0

    @property
    def description(self) -> str:
        return f"{self.kind} {self.subject}"

    def record(self) -> ObligationRecord:
        """The §4.5 record of this verdict (``result`` cut to 1,000 characters)."""
        return ObligationRecord(
            index=self.index, kind=self.kind, description=self.description, line=self.line, column=self.column,
            conclusion=self.conclusion, source_kind=self.source_kind, expression=self.expression,
            predicate=self.predicate, call=self.call, effect=self.effect, module=self.module, reason=self.reason,
            cls=self.cls, result=self.result[:1000], counterexample=self.counterexample,
            elapsed_ms=self.elapsed_ms)

    def to_json(self) -> JsonObject:
        return self.record().to_json()


@dataclass
class ProofResult:
    target: str
    obligations: list[ObligationResult]
    coverage: list[CoverageRecord] = field(default_factory=list)
    elapsed_ms: int = 0
    # The prover itself failed (an exception that is no Unsupported): no verdict at all, whatever the
    # obligations say (issue 18). One line: the exception's class, never its text (it names internals).
    internal_error: str | None = None

    @property
    def status(self) -> str:
        if self.internal_error is not None:
            return "error"
        return "proved" if all(o.conclusion == "proved" for o in self.obligations) else "not_proved"


    def records(self) -> tuple[ObligationRecord, ...]:
        return tuple(o.record() for o in self.obligations)


def to_json(result: ProofResult) -> JsonObject:
    """The prover's part of a §4.5 entry, as JSON (the pipeline's :class:`ProofEntry` adds path, hashes,
    engine and cache fields)."""
    return {
        "target": result.target,
        "status": result.status,
        "obligations": [o.to_json() for o in result.records()],
        "coverage": [c.to_json() for c in result.coverage],
        "elapsed_ms": result.elapsed_ms,
        **({"internal_error": result.internal_error} if result.internal_error is not None else {}),
    }


def render_text(result: ProofResult) -> str:
    from clauz3.prover.render import render_obligations

    return render_obligations(result.target, result.records())
