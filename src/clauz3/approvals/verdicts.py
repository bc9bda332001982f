"""The card's "proved" comes from the authority (issue 11 §5), never from the submitter's claim.

Whoever builds the authority passes ``verify``, a callable that proves the submitted source against
the conversation's authorised layer out of process (``clauz3.prover.verify.ProofVerifier``) and
answers ``{"entry": {...}}`` or ``{"error": ...}``. :func:`check_verdict` turns that answer into the
authority's decision about the request: refused unless the authority's own proof passed, and unless
the request's guarantees, coverage and proof list are exactly the authority's, so whatever the card
lists as proved is what the authority proved. Without a verifier (the mock service, or an authority
built without one) nothing is refused here, but the card marks every proof as the submitter's claim.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from clauz3.approvals.cardview import refresh
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.reach import UNLISTED, covers_sentence, effect_names
from clauz3.approvals.requests import ApprovalRequest, Coverage

DEFAULT_VERIFY_TIMEOUT = 60.0
UNVERIFIED = "claimed by the submitter; not checked by the authority"


@dataclass(frozen=True)
class ProofQuery:
    program: str
    target: str
    trusted_roots: tuple[str, ...]
    import_roots: tuple[str, ...]
    project: str
    timeout_seconds: float
    allow_imports: tuple[str, ...] = ()


Verifier = Callable[[ProofQuery], Mapping[str, Any]]


def _refuse(code: str, message: str) -> ApprovalError:
    return ApprovalError(code, message[:500])


class _Malformed(ApprovalError):
    def __init__(self, what: str) -> None:
        super().__init__("proof_unverified", f"the authority's answer is malformed: {what}")


_T = TypeVar("_T")


def _field(doc: Mapping[str, Any], key: str, kind: type[_T], what: str = "") -> _T:
    value = doc.get(key)
    if not isinstance(value, kind):
        raise _Malformed(f"{what}{key}")
    return value


def _texts(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Malformed(what)
    return tuple(value)


@dataclass(frozen=True)
class AuthorityObligation:
    kind: str
    description: str
    conclusion: str


@dataclass(frozen=True)
class AuthorityProof:
    """The authority child's summary of its own proof (``clauz3.prover.verify``'s answer, parsed once here)."""

    status: str
    target_missing: bool
    program_sha256: str
    layer_sha256: str | None
    engine: str | None
    cached: bool
    obligations: tuple[AuthorityObligation, ...]
    guarantees: tuple[str, ...]
    coverage: tuple[Coverage, ...]
    effects: Mapping[str, Any] | None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> AuthorityProof:
        obligations = []
        for o in _field(doc, "obligations", list):
            if not isinstance(o, Mapping):
                raise _Malformed("obligations")
            obligations.append(AuthorityObligation(_field(o, "kind", str, "obligation "),
                                                   str(o.get("description")), _field(o, "conclusion", str, "obligation ")))
        coverage = []
        for c in _field(doc, "coverage", list):
            if not isinstance(c, Mapping):
                raise _Malformed("coverage")
            coverage.append(Coverage(_field(c, "domain", str, "coverage "), _field(c, "status", str, "coverage "),
                                     _texts(c.get("missing_required"), "coverage missing_required"),
                                     _texts(c.get("missing_recommended"), "coverage missing_recommended")))
        effects = doc.get("effects")
        layer, engine = doc.get("layer_sha256"), doc.get("engine")
        return cls(
            status=_field(doc, "status", str), target_missing=_field(doc, "target_missing", bool),
            program_sha256=_field(doc, "program_sha256", str),
            layer_sha256=layer if isinstance(layer, str) else None, engine=engine if isinstance(engine, str) else None,
            cached=_field(doc, "cached", bool), obligations=tuple(obligations),
            guarantees=tuple(str(g) for g in _field(doc, "guarantees", list)), coverage=tuple(coverage),
            effects=effects if isinstance(effects, Mapping) else None)


def check_verdict(request: ApprovalRequest, answer: Mapping[str, Any]) -> dict[str, Any]:
    """The card's proof block for a request whose claims equal the authority's own proof; else raises."""
    raw = answer.get("entry")
    if not isinstance(raw, Mapping):
        why = answer.get("error") if isinstance(answer.get("error"), str) else "no verdict"
        raise _refuse("proof_unverified", f"the authority could not prove this program: {why}")
    entry = AuthorityProof.from_json(raw)
    failing = [o for o in entry.obligations if o.conclusion != "proved"]
    if entry.status != "proved" or entry.target_missing or failing:
        first = failing[0] if failing else None
        what = f"{first.description} is {first.conclusion}" if first else \
            f"the program is {entry.status or 'not proved'}"
        raise _refuse("unproved_request", f"the authority's own proof of this program failed: {what}")
    if entry.program_sha256 != request.program_sha256:
        raise _refuse("proof_unverified", "the authority proved other bytes than the request carries")
    if any(c.status == "required_gap" for c in entry.coverage):
        raise _refuse("required_coverage_missing", "the authority's proof finds a required guarantee missing")
    # Compared as multisets: the order a submitter lists them in is not part of any verdict.
    if sorted(request.guarantees) != sorted(entry.guarantees):
        raise _refuse("claims_mismatch", "the request's guarantees are not the ones the authority proved")
    if sorted(json.dumps(c.to_json(), sort_keys=True) for c in request.coverage) != \
            sorted(json.dumps(c.to_json(), sort_keys=True) for c in entry.coverage):
        raise _refuse("claims_mismatch", "the request's coverage is not what the authority's proof found")
    claimed = sorted((p.conclusion, p.description) for p in request.proofs)
    if claimed != sorted(("proved", o.description) for o in entry.obligations):
        raise _refuse("claims_mismatch", "the request's proof list is not the authority's")
    # The card's plan (issue 12) is built from these facts: present, they must be the authority's too
    # (absent, the card shows no plan: less, never something the authority did not find).
    if request.effects is not None and \
            json.dumps(request.effects, sort_keys=True) != json.dumps(entry.effects, sort_keys=True):
        raise _refuse("claims_mismatch", "the request's effect facts are not what the authority's proof found")
    # Issue 19: what the program can do, by qualified effect name on every path (the authority's own
    # facts); an automatic decision covers a program only when these lie inside its rule.
    return {"by": "authority", "status": "proved", "obligations": len(entry.obligations),
            "layer_sha256": entry.layer_sha256, "engine": entry.engine,
            "cached": entry.cached, "effects": effect_names(entry.effects)}


def _answer(verify: Verifier, query: ProofQuery) -> Mapping[str, Any]:
    try:
        return verify(query)
    except Exception as exc:  # a verifier that raises gives no verdict: the request is refused
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}


def start_verify(verify: Verifier | None, request: ApprovalRequest, *, trusted_roots: tuple[str, ...],
                 import_roots: tuple[str, ...], project: str,
                 timeout: float = DEFAULT_VERIFY_TIMEOUT) -> Awaitable[dict[str, Any]]:
    """Start the authority's proof now, on a worker thread (its child proves in parallel with whatever the
    caller does next, e.g. building the card), and return what to await for the checked proof block."""
    if verify is None:
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        done.set_result({"by": "submitter", "status": UNVERIFIED, "effects": effect_names(request.effects)})
        return done
    query = ProofQuery(request.program, request.target, trusted_roots, import_roots, project, timeout,
                       request.allow_imports)
    running = asyncio.get_running_loop().run_in_executor(None, _answer, verify, query)

    async def finish() -> dict[str, Any]:
        try:
            answer = await asyncio.wait_for(asyncio.shield(running), timeout + 5.0)
        except TimeoutError:
            answer = {"error": "the authority's proof did not finish in time"}
        return check_verdict(request, answer)

    return finish()


def show_proof(presentation: dict[str, Any], proof: Mapping[str, Any]) -> None:
    """Put the proof block on the card; unverified proofs never read as a bare "proved"."""
    presentation["proof"] = dict(proof)
    summary = presentation.get("summary")
    if isinstance(summary, dict):  # the remember confirmation names the effects a rule would cover
        effects = proof.get("effects")
        summary["covers"] = covers_sentence(effects) if isinstance(effects, list) else UNLISTED
        refresh(presentation)
    if proof.get("by") != "authority":
        presentation["proofs"] = [{**p, "conclusion": f"{p.get('conclusion')} ({UNVERIFIED})"}
                                  for p in presentation.get("proofs", [])]
