"""Gathering what an automatic decision rests on (03 AUTO-1): the policy's verdicts, the remembered
rules (exact matches, then approvals that cover the request by proof), the pauses — then the choice
(:func:`clauz3.approvals.automatic.choose_automatic`) the authority records."""

from __future__ import annotations

from dataclasses import replace

from clauz3.approvals.automatic import Automatic, choose_automatic
from clauz3.approvals.policies import Entailment, Policy, PolicyOutcome, evaluate_policy
from clauz3.approvals.principals import Conversation
from clauz3.approvals.profiles import ProfileStore, RuleMatch
from clauz3.approvals.reach import not_decided, proof_effects
from clauz3.approvals.remembered import Missed, covering_rule, exact_reaches
from clauz3.approvals.requests import Record
from clauz3.approvals.verdicts import Verifier


async def evaluate_automatic(record: Record, conv: Conversation, *, policy: Policy | None, entails: Entailment,
                             timeout: float, verify: Verifier | None, profiles: ProfileStore | None
                             ) -> Automatic | None:
    """AUTO-1: evaluate the policy and the remembered rules; fills ``record.automatic`` and returns the
    decision to record (None: a person decides)."""
    outcome = PolicyOutcome()
    effects = proof_effects(record.presentation)  # issue 19: what the program can do, every path
    if policy is not None:
        outcome = await evaluate_policy(
            policy, program=record.request.program, target=record.request.target,
            trusted_roots=conv.layer.trusted_roots, import_roots=conv.layer.import_roots,
            project=conv.layer.project, entails=entails, timeout=timeout,
            effects=effects)
    notes = [{"source": "policy", "rule": u["rule"], "outside": u["outside"],
              "text": not_decided(u["rule"], u["outside"], remembered=False)} for u in outcome.uncovered]
    record.automatic = {"policy_sha256": policy.sha256 if policy else None,
                        "undecidable": outcome.undecidable, "suppressed": None, "not_decided": notes}
    deny_match: RuleMatch | None = None
    allow_match: RuleMatch | None = None
    missed = Missed()  # issue 19: a remembered approval reaches only the effects its program called
    if profiles is not None and record.profile["eligible"]:
        deny_match, allow_match = profiles.matches(record.project, record.profile["signature"])
        if allow_match is not None:
            allow_match = exact_reaches(profiles, record.project, allow_match, effects, missed)
    covered = None  # issue 12: no exact match, but a remembered approval may cover it by proof
    if profiles is not None and allow_match is None and deny_match is None and outcome.deny is None \
            and outcome.allow is None:
        covered = await covering_rule(profiles, record, conv.layer, verify,
                                      timeout=timeout, outside=missed.outside)
        allow_match = covered[0] if covered is not None else None
    note = missed.note() if allow_match is None else None
    if note is not None:
        notes.append(note)
    # Issue 19: a run missing a sandbox protection is never approved automatically (deny rules still apply).
    # Issue 20: a value from read data in a protected place is the person's call, never a rule's.
    warned = record.provenance_warnings > 0
    paused = conv.paused or warned or not record.request.sandbox.automatic_allowed
    chosen, suppressed = choose_automatic(outcome, policy, deny_match, allow_match, paused=paused)
    if suppressed is not None and warned and not conv.paused:
        suppressed = {**suppressed, "reason": "provenance"}
    if covered is not None:  # the card names the remembered guarantees this program is proved to keep
        chosen = replace(chosen, rule=covered[1]) if chosen is not None else None
        suppressed = {**suppressed, "rule": covered[1]} if suppressed is not None else None
    if chosen is not None:  # decided: why other rules did not decide is no longer the card's business
        record.automatic["not_decided"] = []
    if suppressed is not None:
        record.automatic["suppressed"] = suppressed
    return chosen
