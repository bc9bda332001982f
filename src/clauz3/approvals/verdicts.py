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
from typing import Any

from clauz3.approvals.cardview import refresh
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.reach import UNLISTED, covers_sentence, effect_names
from clauz3.approvals.requests import ApprovalRequest

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


def check_verdict(request: ApprovalRequest, answer: Mapping[str, Any]) -> dict[str, Any]:
    """The card's proof block for a request whose claims equal the authority's own proof; else raises."""
    entry = answer.get("entry")
    if not isinstance(entry, Mapping):
        why = answer.get("error") if isinstance(answer.get("error"), str) else "no verdict"
        raise _refuse("proof_unverified", f"the authority could not prove this program: {why}")
    obligations = [o for o in entry.get("obligations") or [] if isinstance(o, Mapping)]
    failing = [o for o in obligations if o.get("conclusion") != "proved"]
    if entry.get("status") != "proved" or entry.get("target_missing") or failing:
        first = failing[0] if failing else None
        what = f"{first.get('description')} is {first.get('conclusion')}" if first else \
            f"the program is {entry.get('status') or 'not proved'}"
        raise _refuse("unproved_request", f"the authority's own proof of this program failed: {what}")
    if entry.get("program_sha256") != request.program_sha256:
        raise _refuse("proof_unverified", "the authority proved other bytes than the request carries")
    if any(c.get("status") == "required_gap" for c in entry.get("coverage") or [] if isinstance(c, Mapping)):
        raise _refuse("required_coverage_missing", "the authority's proof finds a required guarantee missing")
    # Compared as multisets: the order a submitter lists them in is not part of any verdict.
    own_guarantees = sorted(str(g) for g in entry.get("guarantees") or [])
    if sorted(request.guarantees) != own_guarantees:
        raise _refuse("claims_mismatch", "the request's guarantees are not the ones the authority proved")
    keys = ("domain", "status", "missing_required", "missing_recommended")
    own_coverage = sorted(json.dumps({k: c.get(k) for k in keys}, sort_keys=True)
                          for c in entry.get("coverage") or [] if isinstance(c, Mapping))
    if sorted(json.dumps(c.to_json(), sort_keys=True) for c in request.coverage) != own_coverage:
        raise _refuse("claims_mismatch", "the request's coverage is not what the authority's proof found")
    claimed = sorted((p.conclusion, p.description) for p in request.proofs)
    if claimed != sorted(("proved", str(o.get("description"))) for o in obligations):
        raise _refuse("claims_mismatch", "the request's proof list is not the authority's")
    # The card's plan (issue 12) is built from these facts: present, they must be the authority's too
    # (absent, the card shows no plan: less, never something the authority did not find).
    if request.effects is not None and \
            json.dumps(request.effects, sort_keys=True) != json.dumps(entry.get("effects"), sort_keys=True):
        raise _refuse("claims_mismatch", "the request's effect facts are not what the authority's proof found")
    # Issue 19: what the program can do, by qualified effect name on every path (the authority's own
    # facts); an automatic decision covers a program only when these lie inside its rule.
    return {"by": "authority", "status": "proved", "obligations": len(obligations),
            "layer_sha256": entry.get("layer_sha256"), "engine": entry.get("engine"),
            "cached": bool(entry.get("cached")), "effects": effect_names(entry.get("effects"))}


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
