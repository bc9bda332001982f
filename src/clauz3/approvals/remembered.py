"""A remembered approval covers every program proved at least as strict (issue 12).

The exact signature (:mod:`clauz3.approvals.signature`: same guarantees, imports and library files) is
the fast path. When it misses, an enabled allow rule still decides a new program only when all hold:

* reach: the same project, owner, trusted and import roots, library files (the per-file hashes of the
  authority's own scan) and engine as when it was remembered, the new program imports nothing the
  remembered one did not (by full dotted name; aliases do not matter), and — issue 19 — every effect the
  new program can perform (the proof's effect facts, every path) is one the approved program called, by
  qualified name: importing the module that holds ``write_file`` does not make ``remove`` remembered;
* proof: the authority's own prover child proved the new program (the card's proof block), and proves
  every remembered guarantee on it too, through the policy-entailment machinery (issue 11: the clauses
  are added on the syntax tree under fresh aliases and each obligation must resolve to the remembered
  contract); the clauses are written back from the remembered decision's bound literal arguments, never
  from anyone's source text;
* binding: the new program's proof, the entailment and the remembered decision's own proof all ran
  against library files with one fingerprint, so a layer swapped between the card and the entailment
  (and swapped back before the run) decides nothing.

Anything else — a refuted, unknown or timed-out clause, an argument that cannot be written back as a
literal (a typed path), a proof that is only the submitter's claim — leaves the decision to the person.
Reject-and-remember stays exact (docs/decisions.md): a card is never the unsafe answer.
"""

from __future__ import annotations

import ast
import asyncio
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clauz3.approvals.layers import AuthorisedLayer
from clauz3.approvals.layerscan import LayerScan, scan_layer
from clauz3.approvals.policies import EntailmentQuery
from clauz3.approvals.profiles import ProfileStore, RuleMatch
from clauz3.approvals.reach import STALE_RULE, inside, not_decided, proof_effects
from clauz3.approvals.requests import Record
from clauz3.base.astparse import parse_ast

# ``(holds, fingerprint of the library files it was proved against)``; raises when undecidable.
LayerEntailment = Callable[[EntailmentQuery], tuple[bool, str]]
COVERED_REASON = "Remembered approval: this program is proved to keep every guarantee you remembered"
MAX_CANDIDATES = 8  # rules proved per request at most (newest first): bounds the wait before a card
# Basis fields that must be equal for a remembered rule to reach a new program at all.
REACH = ("schema", "project", "owner_uid", "trusted_roots", "import_roots", "layer", "engine")


@dataclass(frozen=True)
class Candidate:
    rule: RuleMatch
    imports: dict[str, str]  # clause alias -> contract module
    clauses: tuple[str, ...]
    sentences: tuple[str, ...]  # the remembered card's guarantee sentences
    proof_layer: str  # fingerprint of the layer the remembered decision's own proof used


@dataclass
class Missed:
    """Why remembered approvals did not reach a program (issue 19), for the card's note."""

    outside: set[str] = field(default_factory=set)  # effects no reaching rule's program called
    exact: bool = False  # an exact signature match was dropped for its effects
    stale: bool = False  # ... because its decision predates effect facts

    def note(self) -> dict[str, Any] | None:
        if not self.outside and not self.exact:
            return None
        text = STALE_RULE if self.stale and not self.outside else \
            not_decided("", self.outside, remembered=True)
        return {"source": "profile", "rule": None, "outside": sorted(self.outside), "text": text}


def exact_reaches(store: ProfileStore, project: str, match: RuleMatch, effects: frozenset[str] | None,
                  missed: Missed) -> RuleMatch | None:
    """``match`` (an exact signature match) if the approved program called every effect this one can
    perform; the signature says nothing about the body (PRO-7), so another effect of the same module
    would otherwise be remembered too."""
    approved = store.approved_effects(project, match.history_id)
    ok, missing = inside(effects, approved)
    if ok:
        return match
    missed.exact = True
    missed.stale = approved is None and effects is not None
    missed.outside.update(missing)
    return None


def layer_entailment(verify: object) -> LayerEntailment | None:
    """The verifier's layer-bound entailment (``ProofVerifier.entails_on_layer``), if it has one."""
    found = getattr(verify, "entails_on_layer", None)
    return found if callable(found) else None


def import_targets(statements: object) -> set[str] | None:
    """What the basis's normalised import statements bring in, by full dotted name: the alias a program
    gives a module changes nothing it can reach (``import a.b`` is ``a.b``, not just ``a``)."""
    if not isinstance(statements, list):
        return None
    found: set[str] = set()
    for statement in statements:
        try:
            tree = parse_ast(str(statement))
        except (SyntaxError, ValueError):
            return None
        for node in tree.body:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            else:
                return None
    return found


def same_reach(remembered: Mapping[str, Any], basis: Mapping[str, Any]) -> bool:
    if any(remembered.get(k) != basis.get(k) for k in REACH):
        return False
    mine, theirs = import_targets(remembered.get("imports")), import_targets(basis.get("imports"))
    return mine is not None and theirs is not None and theirs <= mine


def literal(value: Any) -> str | None:
    """Python source for one canonical argument (:func:`layerscan.canonical_arg`), or None."""
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, list):
        items = [literal(v) for v in value]
        return None if None in items else "[" + ", ".join(str(i) for i in items) + "]"
    if not isinstance(value, dict) or len(value) != 1:
        return None
    (tag, inner), = value.items()
    if tag == "$float" and isinstance(inner, str):
        try:
            number = float(inner)
        except ValueError:
            return None
        return repr(number) if math.isfinite(number) else None
    if tag == "$bytes" and isinstance(inner, str):
        try:
            return repr(bytes.fromhex(inner))
        except ValueError:
            return None
    if tag in ("$tuple", "$set") and isinstance(inner, list):
        items = [literal(v) for v in inner]
        if None in items or (tag == "$set" and not items):  # set() is a call, not a literal
            return None
        body = ", ".join(str(i) for i in items)
        return f"({body},)" if tag == "$tuple" and len(items) == 1 else f"({body})" if tag == "$tuple" \
            else "{" + body + "}"
    if tag == "$dict" and isinstance(inner, list):
        pairs = [(literal(p[0]), literal(p[1])) for p in inner if isinstance(p, list) and len(p) == 2]
        if len(pairs) != len(inner) or any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return None  # a typed path ($path) or anything unknown: the person decides


def clauses_for(guarantees: Sequence[Any], scan: LayerScan) -> tuple[dict[str, str], tuple[str, ...]] | None:
    """The remembered guarantees as policy clauses on the same contracts, or None."""
    imports: dict[str, str] = {}
    clauses: list[str] = []
    for index, g in enumerate(guarantees):
        if not isinstance(g, Mapping) or not isinstance(g.get("symbol"), str) or not isinstance(g.get("args"), dict):
            return None
        info = scan.contracts.get(g["symbol"])
        args: dict[str, Any] = g["args"]
        if info is None or info.symbol != g["symbol"] or set(args) != {p.name for p in info.params}:
            return None
        written: list[str] = []
        for param in info.params:
            text = literal(args[param.name])
            if text is None:
                return None
            written.append(f"{param.name}={text}" if param.kind == "kwonly" else text)
        alias = f"remembered{index}"
        imports[alias] = info.module
        clauses.append(f"{alias}.{info.qualname}({', '.join(written)})")
    return (imports, tuple(clauses)) if clauses else None


def _proof_layer(record: Mapping[str, Any]) -> str | None:
    presentation = record.get("presentation")
    proof = presentation.get("proof") if isinstance(presentation, Mapping) else None
    if not isinstance(proof, Mapping) or proof.get("by") != "authority" or proof.get("status") != "proved":
        return None
    layer = proof.get("layer_sha256")
    return layer if isinstance(layer, str) and layer else None


def _sentences(record: Mapping[str, Any]) -> tuple[str, ...]:
    presentation = record.get("presentation")
    summary = presentation.get("summary") if isinstance(presentation, Mapping) else None
    listed = summary.get("guarantees") if isinstance(summary, Mapping) else None
    return tuple(str(g.get("text")) for g in listed or [] if isinstance(g, Mapping) and g.get("text"))


def candidates(rows: Sequence[tuple[RuleMatch, dict[str, Any], dict[str, Any]]], basis: Mapping[str, Any],
               scan: LayerScan, effects: frozenset[str] | None,
               outside: set[str] | None = None) -> list[Candidate]:
    """The allow rules that reach ``basis`` and ``effects`` and can be written as clauses; one per guarantee
    set. ``outside`` collects the effects that kept an otherwise reaching rule from covering the program."""
    out: list[Candidate] = []
    seen: set[tuple[str, ...]] = set()
    for rule, remembered, record in rows:
        layer = _proof_layer(record)
        if layer is None or not same_reach(remembered, basis):
            continue
        ok, missing = inside(effects, proof_effects(record.get("presentation")))
        if not ok:
            if outside is not None:
                outside.update(missing)
            continue
        built = clauses_for(remembered.get("guarantees") or [], scan)
        if built is None or built[1] in seen:
            continue
        seen.add(built[1])
        out.append(Candidate(rule, built[0], built[1], _sentences(record), layer))
        if len(out) >= MAX_CANDIDATES:
            break
    return out


async def covering_rule(store: ProfileStore, record: Record, layer: AuthorisedLayer, verify: object, *,
                        timeout: float, outside: set[str] | None = None) -> tuple[RuleMatch, dict[str, Any]] | None:
    """The newest enabled allow rule whose every guarantee the authority proves on ``record``'s program
    against the layer its card was proved on, and whose approved program called every effect this one can
    perform, with the rule as the card shows it; else None (``outside``: see :func:`candidates`)."""
    effects = proof_effects(record.presentation)
    if effects is None:
        return None
    entail = layer_entailment(verify)
    proof = record.presentation.get("proof") if isinstance(record.presentation, dict) else None
    proved_on = proof.get("layer_sha256") if isinstance(proof, dict) and proof.get("by") == "authority" else None
    if entail is None or not proved_on or record.layer_sha256 is None or not record.basis:
        return None
    rows = store.allow_rules(record.project)
    if not rows:
        return None
    scan = scan_layer(layer.trusted_roots, layer.import_roots)
    if dict(sorted(scan.files.items())) != record.basis.get("layer"):
        return None  # the files changed since the card was built: nothing is remembered for them
    deadline = time.monotonic() + timeout
    for found in candidates(rows, record.basis, scan, effects, outside):
        if found.proof_layer != proved_on:
            continue
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        query = EntailmentQuery(record.request.program, record.request.target, layer.trusted_roots,
                                layer.import_roots, layer.project, found.imports, found.clauses,
                                found.rule.rule_id, remaining)
        try:
            holds, on = await asyncio.wait_for(asyncio.to_thread(entail, query), remaining)
        except Exception:  # undecidable (error, timeout): this rule does not decide, the person may
            continue
        if holds is True and on == proved_on:
            return found.rule, {"source": "profile", "id": found.rule.rule_id, "name": found.rule.rule_id,
                                "reason": COVERED_REASON, "match": "at_least_as_strict",
                                "guarantees": list(found.sentences)}
    return None
