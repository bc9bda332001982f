"""Operator policy files (03 §9.1): strict loading, and rule evaluation through an injected prover.

The authority never proves anything itself (LIFE-5): whoever builds it passes ``entails``, a
callable that adds a rule's clauses as guarantees on the request's target and proves the augmented
program on the authorised layer in a subprocess (POL-3, POL-6). It returns True iff every added
obligation is proved, False if one is refuted or unknown, and raises when the rule is undecidable
(error, no obligations). :func:`never_entails` is the conservative default: no allow rule fires and
every deny rule fires, so an unwired prover can only make the authority stricter.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.approvals.decisions import AUTO_APPROVED, AUTO_REJECTED, UnknownDecision, check_decision
from clauz3.approvals.errors import ApprovalError
from clauz3.base.astparse import parse_ast

MAX_POLICY_BYTES = 1024 * 1024
MAX_RULES = 200
MAX_CLAUSES = 32
MAX_CLAUSE_CHARS = 2000
MAX_REASON_CHARS = 500
DEFAULT_POLICY_TIMEOUT = 20.0
RULE_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,80}$")
_DOTTED_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class PolicyError(ApprovalError, ValueError):
    """Invalid policy file; the message names the rule index and name when a rule is at fault."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_policy", message)


@dataclass(frozen=True)
class PolicyRule:
    index: int
    name: str
    decision: str  # auto_approved | auto_rejected
    reason: str
    clauses: tuple[str, ...]

    @property
    def is_deny(self) -> bool:
        return self.decision == AUTO_REJECTED


@dataclass(frozen=True)
class Policy:
    imports: dict[str, str]
    rules: tuple[PolicyRule, ...]
    sha256: str
    path: str | None = None

    def summary(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "rules": [
            {"name": r.name, "decision": r.decision, "reason": r.reason} for r in self.rules]}


def load_policy(path: Path) -> Policy:
    """Read once at start (POL-2: later edits have no effect until restart)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_POLICY_BYTES + 1)
    except OSError as exc:
        raise PolicyError(f"cannot read policy file {path}: {exc.strerror or exc}") from exc
    return parse_policy(data, path=str(path))


def parse_policy(data: bytes, *, path: str | None = None) -> Policy:
    if len(data) > MAX_POLICY_BYTES:
        raise PolicyError("policy file is larger than 1 MiB")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolicyError(f"policy file is not JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise PolicyError("policy file must hold a JSON object")
    unknown = set(doc) - {"version", "imports", "rules"}
    if unknown:
        raise PolicyError(f"unknown policy key {sorted(unknown)[0]!r}")
    if type(doc.get("version")) is not int or doc.get("version") != 1:
        raise PolicyError("policy version must be 1")
    imports = doc.get("imports", {})
    if not isinstance(imports, dict):
        raise PolicyError("policy imports must be an object of alias → module")
    for alias, module in imports.items():
        if not alias.isidentifier():
            raise PolicyError(f"policy import alias {alias!r} is not an identifier")
        if not isinstance(module, str) or not _DOTTED_RE.match(module):
            raise PolicyError(f"policy import {alias!r}: {module!r} is not a dotted module name")
    rules_raw = doc.get("rules")
    if not isinstance(rules_raw, list):
        raise PolicyError("policy rules must be a list")
    if len(rules_raw) > MAX_RULES:
        raise PolicyError(f"policy rule {MAX_RULES + 1}: more than {MAX_RULES} rules")
    rules: list[PolicyRule] = []
    seen: set[str] = set()
    for index, raw in enumerate(rules_raw, start=1):
        rules.append(_rule(index, raw, seen))
    return Policy(dict(imports), tuple(rules), hashlib.sha256(data).hexdigest(), path)


def _rule(index: int, raw: Any, seen: set[str]) -> PolicyRule:
    name = raw.get("name") if isinstance(raw, dict) else None
    where = f"policy rule {index} ({name})" if isinstance(name, str) else f"policy rule {index}"
    if not isinstance(raw, dict):
        raise PolicyError(f"{where}: must be an object")
    unknown = set(raw) - {"name", "decision", "reason", "when_proven", "unless_proven"}
    if unknown:
        raise PolicyError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    if not isinstance(name, str) or not RULE_NAME_RE.match(name):
        raise PolicyError(f"{where}: name must match ^[A-Za-z0-9_.-]{{1,80}}$")
    if name in seen:
        raise PolicyError(f"{where}: duplicate rule name")
    seen.add(name)
    try:
        decision = check_decision(raw.get("decision"), (AUTO_APPROVED, AUTO_REJECTED))
    except UnknownDecision as exc:
        raise PolicyError(f"{where}: {exc}") from exc
    reason = raw.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS:
        raise PolicyError(f"{where}: reason must be a string of at most {MAX_REASON_CHARS} characters")
    wanted, other = ("when_proven", "unless_proven") if decision == AUTO_APPROVED else \
        ("unless_proven", "when_proven")
    if other in raw:
        raise PolicyError(f"{where}: {decision} rules use {wanted}, not {other}")
    clauses = raw.get(wanted)
    if not isinstance(clauses, list) or not clauses:
        raise PolicyError(f"{where}: {wanted} must be a non-empty list of clauses")
    if len(clauses) > MAX_CLAUSES:
        raise PolicyError(f"{where}: more than {MAX_CLAUSES} clauses")
    for clause in clauses:
        if not isinstance(clause, str) or len(clause) > MAX_CLAUSE_CHARS:
            raise PolicyError(f"{where}: each clause must be a string of at most {MAX_CLAUSE_CHARS} characters")
        try:
            parse_ast(clause, mode="eval")
        except SyntaxError as exc:
            raise PolicyError(f"{where}: clause {clause[:80]!r} is not a Python expression") from exc
    return PolicyRule(index, name, decision, reason, tuple(clauses))


# ------------------------------------------------------------------------------------ evaluation


@dataclass(frozen=True)
class EntailmentQuery:
    """What the prover needs to evaluate one rule; paths are the authority's frozen ones (LAY-3)."""

    program: str
    target: str
    trusted_roots: tuple[str, ...]
    import_roots: tuple[str, ...]
    project: str
    imports: dict[str, str]
    clauses: tuple[str, ...]
    rule_name: str
    timeout_seconds: float


# A bare bool is a verdict that says nothing about what the rule covers (an allow rule then decides
# nothing); ``{"entailed": bool, "covers": [qualified effect names]}`` is the prover's full answer.
Entailment = Callable[[EntailmentQuery], "bool | Mapping[str, Any]"]


def never_entails(query: EntailmentQuery) -> bool:
    return False


@dataclass
class PolicyOutcome:
    deny: PolicyRule | None = None
    allow: PolicyRule | None = None
    undecidable: list[dict[str, str]] = field(default_factory=list)
    # Issue 19: allow rules whose clauses were proved but which do not cover every effect of the program.
    uncovered: list[dict[str, Any]] = field(default_factory=list)


def _verdict(result: object) -> tuple[bool | None, frozenset[str] | None]:
    """(entailed or None when no verdict, the effects the clauses cover or None when not said)."""
    if type(result) is bool:
        return result, None
    if isinstance(result, Mapping) and type(result.get("entailed")) is bool:
        covers = result.get("covers")
        ok = isinstance(covers, list) and all(isinstance(c, str) for c in covers)
        return result["entailed"], frozenset(covers) if ok and isinstance(covers, list) else None
    return None, None


async def evaluate_policy(policy: Policy, *, program: str, target: str, trusted_roots: tuple[str, ...],
                          import_roots: tuple[str, ...], project: str, entails: Entailment,
                          timeout: float = DEFAULT_POLICY_TIMEOUT,
                          effects: frozenset[str] | None = None) -> PolicyOutcome:
    """POL-3..6 in rule order: deny rules first, then allow rules (none if any deny was undecidable).

    Issue 19: an allow rule fires only when, besides every clause being proved, every effect the program
    can perform (``effects``, from the proof's effect facts; None = unknown) is one its clauses constrain.
    A proved allow rule that does not cover the program is listed in ``uncovered`` and the next allow
    rule is tried. Deny rules apply to every program, whatever it calls.
    """
    outcome = PolicyOutcome()
    deadline = time.monotonic() + timeout
    denies = [r for r in policy.rules if r.is_deny]
    allows = [r for r in policy.rules if not r.is_deny]
    blocked = False  # AUTO-3: an undecidable deny rule blocks every automatic approval
    for rule in [*denies, *allows]:
        if outcome.deny is not None or (not rule.is_deny and (blocked or outcome.allow is not None)):
            break
        remaining = deadline - time.monotonic()
        verdict: bool | None = None
        covers: frozenset[str] | None = None
        why = "policy evaluation deadline passed"
        if remaining > 0:
            query = EntailmentQuery(program, target, trusted_roots, import_roots, project,
                                    dict(policy.imports), rule.clauses, rule.name, remaining)
            try:
                result = await asyncio.wait_for(asyncio.to_thread(entails, query), remaining)
            except TimeoutError:
                result = None
            except Exception as exc:  # POL-5: an evaluation that raises is undecidable, never a pass
                result, why = None, f"{type(exc).__name__}: {exc}"[:300]
            verdict, covers = _verdict(result)
            if verdict is None and result is not None:
                why = "entailment gave no verdict"
        if verdict is None:
            outcome.undecidable.append({"rule": rule.name, "why": why})
            blocked = blocked or rule.is_deny
        elif rule.is_deny and not verdict:
            outcome.deny = rule
        elif not rule.is_deny and verdict:
            outside = None if effects is None or covers is None else sorted(effects - covers)
            if outside == []:
                outcome.allow = rule
            else:
                outcome.uncovered.append({"rule": rule.name, "outside": outside or [],
                                          "covers": sorted(covers or ())})
    return outcome
