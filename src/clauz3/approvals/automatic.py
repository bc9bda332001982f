"""Automatic decisions (03 AUTO-1..AUTO-4): which rule, if any, decides a request before a person.

Precedence (AUTO-1): policy deny → remembered deny → policy allow → remembered allow → a person.
A deny rule the prover could not decide blocks every automatic approval (AUTO-3); while a
conversation's approvals are paused an approval is suppressed and shown, a denial still applies
(AUTO-4). Pure: the authority evaluates the policy and the profile matches, then applies the choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clauz3.approvals.decisions import AUTO_APPROVED, AUTO_REJECTED
from clauz3.approvals.policies import Policy, PolicyOutcome, PolicyRule
from clauz3.approvals.profiles import RuleMatch
from clauz3.approvals.signature import REMEMBERED_REASON


@dataclass(frozen=True)
class Automatic:
    """The automatic decision to record: by ``policy`` or ``profile``, with the rule shown on the card."""

    decision: str
    decided_by: str
    rule: dict[str, Any]
    feedback: str | None = None
    rule_id: str | None = None


def profile_rule(rule_id: str) -> dict[str, Any]:
    """How a remembered rule appears on a record."""
    return {"source": "profile", "id": rule_id, "name": rule_id, "reason": REMEMBERED_REASON}


def _policy_rule(rule: PolicyRule) -> dict[str, Any]:
    return {"source": "policy", "id": rule.name, "name": rule.name, "reason": rule.reason}


def choose_automatic(outcome: PolicyOutcome, policy: Policy | None, deny_match: RuleMatch | None,
                     allow_match: RuleMatch | None, *, paused: bool
                     ) -> tuple[Automatic | None, dict[str, Any] | None]:
    """(the decision to record, or None; the suppressed approval to show, or None)."""
    if outcome.deny is not None:
        return Automatic(AUTO_REJECTED, "policy", _policy_rule(outcome.deny), outcome.deny.reason), None
    if deny_match is not None:
        return Automatic(AUTO_REJECTED, "profile", profile_rule(deny_match.rule_id),
                         rule_id=deny_match.rule_id), None
    deny_names = {r.name for r in policy.rules if r.is_deny} if policy is not None else set()
    if any(u["rule"] in deny_names for u in outcome.undecidable):
        return None, None  # AUTO-3: no automatic approval when a deny rule could not be decided
    allow: Automatic | None = None
    if outcome.allow is not None:
        allow = Automatic(AUTO_APPROVED, "policy", _policy_rule(outcome.allow), outcome.allow.reason)
    elif allow_match is not None:
        allow = Automatic(AUTO_APPROVED, "profile", profile_rule(allow_match.rule_id), rule_id=allow_match.rule_id)
    if allow is None:
        return None, None
    if paused:
        return None, {"source": allow.decided_by, "rule": allow.rule}
    return allow, None
