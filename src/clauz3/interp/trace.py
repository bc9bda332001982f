"""The concrete trace of one run: call records, the events they imply, fluent state (01 §2.6–2.7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clauz3.interp.values import RecordValue, render, to_json, untag
from clauz3.language import ir


@dataclass
class CallRecord:
    """One effect call (03 RUN-3). ``index`` is 1-based; ``arguments`` every parameter as received."""

    index: int
    effect: str
    short: str
    arguments: dict[str, Any]
    line: int
    site: int
    file: str = ""
    result: Any = None
    events: list[RecordValue] = field(default_factory=list)
    error: str | None = None  # set when the call raised or broke its contract

    def view(self) -> RecordValue:
        return RecordValue("call", self.effect, self.arguments)

    def describe(self) -> str:
        args = ", ".join(f"{k}={render(v)}" for k, v in self.arguments.items())
        return f"{self.short}({args})"

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "effect": self.effect,
            "arguments": {k: to_json(v) for k, v in self.arguments.items()},
            "line": self.line,
            "site": self.site,
            "result": to_json(self.result),
            "error": self.error,
            "events": [{"event": e.name, "fields": to_json(e.values)} for e in self.events],
        }


def expand_events(program: ir.CheckedProgram, effect: ir.Effect, arguments: dict[str, Any]) -> list[RecordValue]:
    """EVT-2: the events a call performs, in list order; arguments map to the class's fields in order."""
    out: list[RecordValue] = []
    for performed in effect.performs:
        cls = program.events.get(performed.event)
        names = [f for f, _ in cls.fields] if cls is not None else list(performed.args)
        values = {name: arguments.get(arg) for name, arg in zip(names, performed.args, strict=False)}
        out.append(RecordValue("event", performed.event, values))
    return out


def fluent_changes(effect: ir.Effect, arguments: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """FLU-2: ``(fluent, key, value)`` updates of one call, in declaration order."""

    def resolve(spec: tuple[str, Any]) -> Any:
        kind, value = spec
        return untag(arguments.get(value)) if kind == "param" else value

    return [(u.fluent, resolve(u.key), resolve(u.value)) for u in effect.fluent_updates]


class Trace:
    """Committed call records plus the fluent state after the last of them."""

    def __init__(self, program: ir.CheckedProgram) -> None:
        self.program = program
        self.records: list[CallRecord] = []
        self.fluents: dict[str, dict[Any, Any]] = {name: {} for name in program.fluents}
        self.last_set: dict[tuple[str, Any], int] = {}

    def append(self, record: CallRecord, changes: list[tuple[str, Any, Any]]) -> None:
        self.records.append(record)
        for fluent, key, value in changes:
            self.fluents.setdefault(fluent, {})[key] = value
            self.last_set[(fluent, key)] = record.index

    def fluent_value(self, fluent: str, key: Any) -> Any:
        decl = self.program.fluents.get(fluent)
        initial = decl.initial if decl is not None else None
        return self.fluents.get(fluent, {}).get(key, initial)

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.records]
