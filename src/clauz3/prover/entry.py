"""The 01 §4.5 entry as types: what one proof of one file came to.

Built once where the proof is made (:mod:`clauz3.prover.pipeline`) or where its JSON is read back
(the proof cache's file, a forked prover's pipe, the authority child's answer), and turned into JSON
only where a process boundary or a file is crossed: :meth:`ProofEntry.to_json` and
:meth:`ProofEntry.from_json` are the one place the JSON shape is written down. ``to_json`` gives the
keys in §4.5's order (``prove --json`` prints them so), the optional ones after them only when set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias, cast

from clauz3.prover.errors import ProverError

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"

# §4.5: every obligation proved; a negative verdict; refused before proving; the prover could not finish.
EntryStatus = Literal["proved", "not_proved", "refused", "error"]
STATUSES: tuple[EntryStatus, ...] = ("proved", "not_proved", "refused", "error")


class EntryFormatError(ProverError):
    """JSON read back (a cache file, a child's answer) is no §4.5 entry: it is not used."""


# ------------------------------------------------------------------------------ field readers


def _obj(doc: object, what: str) -> Mapping[str, object]:
    if not isinstance(doc, Mapping):
        raise EntryFormatError(f"{what} is not an object")
    return cast("Mapping[str, object]", doc)


def _str(doc: Mapping[str, object], key: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str):
        raise EntryFormatError(f"{key} is not a string")
    return value


def _opt_str(doc: Mapping[str, object], key: str) -> str | None:
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise EntryFormatError(f"{key} is neither a string nor null")
    return value


def _int(doc: Mapping[str, object], key: str) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise EntryFormatError(f"{key} is not an integer")
    return value


def _strs(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise EntryFormatError(f"{what} is not a list of strings")
    return tuple(value)


def _list(doc: Mapping[str, object], key: str) -> list[object]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise EntryFormatError(f"{key} is not a list")
    return value


def _json_object(value: object, what: str) -> JsonObject | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise EntryFormatError(f"{what} is neither an object nor null")
    return cast("JsonObject", value)


# ------------------------------------------------------------------------------ the parts


@dataclass(frozen=True)
class DiagnosticRecord:
    """A refusal's or warning's diagnostic (DIAG-1) as the entry carries it."""

    severity: str
    file: str
    line: int
    column: int
    code: str
    message: str
    hint: str | None = None

    def to_json(self) -> JsonObject:
        return {"severity": self.severity, "file": self.file, "line": self.line, "column": self.column,
                "code": self.code, "message": self.message, "hint": self.hint}

    @classmethod
    def from_json(cls, doc: object) -> DiagnosticRecord:
        d = _obj(doc, "a diagnostic")
        return cls(_str(d, "severity"), _str(d, "file"), _int(d, "line"), _int(d, "column"), _str(d, "code"),
                   _str(d, "message"), _opt_str(d, "hint"))


# A diagnostic is a record (a refusal's) or one rendered line (an unreadable file, a passed deadline).
DiagnosticItem = DiagnosticRecord | str


@dataclass(frozen=True)
class CoverageRecord:
    """COV-3: what the proof says about one used domain's policy."""

    domain: str
    status: str  # covered | recommended_gap | silent_gap | required_gap
    missing_required: tuple[str, ...] = ()
    missing_recommended: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {"domain": self.domain, "status": self.status, "missing_required": list(self.missing_required),
                "missing_recommended": list(self.missing_recommended)}

    @classmethod
    def from_json(cls, doc: object) -> CoverageRecord:
        d = _obj(doc, "a coverage item")
        return cls(_str(d, "domain"), _str(d, "status"), _strs(d.get("missing_required"), "missing_required"),
                   _strs(d.get("missing_recommended"), "missing_recommended"))


@dataclass(frozen=True)
class ObligationRecord:
    """One obligation's verdict (the §4.5 per-obligation table; ``cls`` is its ``class``)."""

    index: int
    kind: str  # guarantee | required | precondition | postcondition | assertion | exception
    description: str
    line: int
    column: int
    conclusion: str  # proved | violated | unknown
    source_kind: str
    expression: str | None = None
    predicate: str | None = None
    call: str | None = None
    effect: str | None = None
    module: str | None = None
    reason: str | None = None
    cls: str | None = None
    result: str = ""
    counterexample: JsonObject | None = None  # CEX-1's object (counterexample.py), never changed once made
    elapsed_ms: int = 0

    @property
    def proved(self) -> bool:
        return self.conclusion == "proved"

    def to_json(self) -> JsonObject:
        return {
            "index": self.index, "kind": self.kind, "description": self.description,
            "expression": self.expression, "predicate": self.predicate, "call": self.call,
            "effect": self.effect, "module": self.module, "line": self.line, "column": self.column,
            "conclusion": self.conclusion, "reason": self.reason, "class": self.cls,
            "source_kind": self.source_kind, "result": self.result, "counterexample": self.counterexample,
            "elapsed_ms": self.elapsed_ms,
        }

    @classmethod
    def from_json(cls, doc: object) -> ObligationRecord:
        d = _obj(doc, "an obligation")
        return cls(
            index=_int(d, "index"), kind=_str(d, "kind"), description=_str(d, "description"),
            line=_int(d, "line"), column=_int(d, "column"), conclusion=_str(d, "conclusion"),
            source_kind=_str(d, "source_kind"), expression=_opt_str(d, "expression"),
            predicate=_opt_str(d, "predicate"), call=_opt_str(d, "call"), effect=_opt_str(d, "effect"),
            module=_opt_str(d, "module"), reason=_opt_str(d, "reason"), cls=_opt_str(d, "class"),
            result=_str(d, "result"), counterexample=_json_object(d.get("counterexample"), "counterexample"),
            elapsed_ms=_int(d, "elapsed_ms"),
        )


@dataclass(frozen=True)
class EffectFacts:
    """The prover's effect facts of the proved program (:func:`clauz3.prover.facts.effect_facts`), which
    the authority attaches to its own proofs (issue 12); ``facts`` is None when there are none."""

    facts: JsonObject | None


# ------------------------------------------------------------------------------ the entry


@dataclass(frozen=True)
class ProofEntry:
    """One §4.5 entry. ``target_missing``, ``warnings_text`` and ``effect_facts`` are ours, not §4.5's:
    ``prove --json`` leaves the first two out; each is in the JSON only when set."""

    path: str
    target: str
    program_sha256: str
    ir_sha256: str | None = None
    layer_sha256: str | None = None
    engine: str | None = None
    cached: bool = False
    elapsed_ms: int = 0
    status: EntryStatus = "error"
    obligations: tuple[ObligationRecord, ...] = ()
    coverage: tuple[CoverageRecord, ...] = ()
    diagnostics: tuple[DiagnosticItem, ...] = ()
    target_missing: bool = False  # DIAG-2: no target is a negative verdict, not a refusal
    warnings_text: tuple[str, ...] | None = None  # the checker's warnings as printed (a proof reached)
    effect_facts: EffectFacts | None = None

    @property
    def refused(self) -> bool:
        """Refused or failed before any verdict (``refused``, ``error``)."""
        return self.status in ("refused", "error")

    def first_open(self) -> ObligationRecord | None:
        """The first obligation not proved (the one a refusal names)."""
        return next((o for o in self.obligations if not o.proved), None)

    def diagnostic_codes(self) -> list[str]:
        """The codes of the diagnostic records (a rendered line has none)."""
        return [d.code for d in self.diagnostics if isinstance(d, DiagnosticRecord)]

    def has_required_gap(self) -> bool:
        return any(c.status == "required_gap" for c in self.coverage)

    def to_json(self) -> JsonObject:
        doc: JsonObject = {
            "path": self.path, "target": self.target, "program_sha256": self.program_sha256,
            "ir_sha256": self.ir_sha256, "layer_sha256": self.layer_sha256, "engine": self.engine,
            "cached": self.cached, "elapsed_ms": self.elapsed_ms, "status": self.status,
            "obligations": [o.to_json() for o in self.obligations],
            "coverage": [c.to_json() for c in self.coverage],
            "diagnostics": [d if isinstance(d, str) else d.to_json() for d in self.diagnostics],
        }
        if self.target_missing:
            doc["target_missing"] = True
        if self.warnings_text is not None:
            doc["warnings_text"] = list(self.warnings_text)
        if self.effect_facts is not None:
            doc["effect_facts"] = self.effect_facts.facts
        return doc

    @classmethod
    def from_json(cls, doc: object) -> ProofEntry:
        """The entry ``doc`` spells; raises :class:`EntryFormatError` if it spells none."""
        d = _obj(doc, "the entry")
        status = d.get("status")
        if status not in STATUSES:
            raise EntryFormatError("status is not a §4.5 status")
        cached, missing = d.get("cached", False), d.get("target_missing", False)
        if not isinstance(cached, bool) or not isinstance(missing, bool):
            raise EntryFormatError("cached or target_missing is not a boolean")
        warnings = d.get("warnings_text")
        return cls(
            path=_str(d, "path"), target=_str(d, "target"), program_sha256=_str(d, "program_sha256"),
            ir_sha256=_opt_str(d, "ir_sha256"), layer_sha256=_opt_str(d, "layer_sha256"),
            engine=_opt_str(d, "engine"), cached=cached, elapsed_ms=_int(d, "elapsed_ms"),
            status=status,
            obligations=tuple(ObligationRecord.from_json(o) for o in _list(d, "obligations")),
            coverage=tuple(CoverageRecord.from_json(c) for c in _list(d, "coverage")),
            diagnostics=tuple(x if isinstance(x, str) else DiagnosticRecord.from_json(x)
                              for x in _list(d, "diagnostics")),
            target_missing=missing,
            warnings_text=None if warnings is None else _strs(warnings, "warnings_text"),
            effect_facts=EffectFacts(_json_object(d["effect_facts"], "effect_facts"))
            if "effect_facts" in d else None,
        )
