"""Issue 19 §3: a run missing a sandbox protection is never approved by a policy; denials still apply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clauz3.approvals.policies import parse_policy

from .conftest import Harness, make_request
from .test_policies_profiles import SEND_EMAIL, SENDS

ALLOW = {"name": "small", "decision": "auto_approved", "reason": "one email to bob",
         "when_proven": ["mail.at_most(count=3)"]}
DENY = {"name": "deny-external", "decision": "auto_rejected", "reason": "external mail",
        "unless_proven": ["mail.only(['bob@example.com'])"]}
GAP = "This run can use the network: this kernel offers neither Landlock network rules nor seccomp here."


def _sandbox(gaps: list[str]) -> dict[str, Any]:
    return {"mode": "landlock", "detail": "Landlock ABI 3", "extra_read": [], "extra_write": [],
            "network": {"mode": "unavailable" if gaps else "seccomp", "text": gaps[0] if gaps else
                        "This run cannot use the network (seccomp).", "declared_by": []},
            "gaps": gaps}


def _harness(data: Path, project: Path, *rules: dict[str, Any], verdicts: dict[str, bool]) -> Harness:
    policy = parse_policy(json.dumps({"version": 1, "imports": {"mail": "tools.email.trusted.contracts"},
                                      "rules": list(rules)}).encode())
    # Issue 19: a rule decides only the effects it speaks about; every email rule here speaks about send_email.
    return Harness(data, project, policy=policy,
                   entails=lambda query: {"entailed": verdicts[query.rule_name], "covers": [SEND_EMAIL]})


def test_a_gap_turns_the_allow_rule_off_and_the_card_says_why(data_dir: Path, project: Path) -> None:
    h = _harness(data_dir, project, ALLOW, verdicts={"small": True})
    with h.client:
        full = h.submit(make_request(h.project, effects=SENDS, request_id="req_full0001", sandbox=_sandbox([]))).json()
        gap = h.submit(make_request(h.project, effects=SENDS, request_id="req_gaps0001", sandbox=_sandbox([GAP]))).json()
        record = h.authority._records["req_gaps0001"]
    assert full["state"] == "approved" and full["decided_by"] == "policy"
    assert gap["state"] == "pending", gap
    assert record.automatic is not None and record.automatic["suppressed"]["rule"]["name"] == "small"
    from clauz3.approvals.presentation import AUTOMATIC_OFF

    shown = record.presentation["execution"]
    assert shown["gaps"] == [GAP] and shown["automatic"] == AUTOMATIC_OFF


def test_deny_rules_still_apply_to_a_run_with_a_gap(data_dir: Path, project: Path) -> None:
    h = _harness(data_dir, project, DENY, ALLOW, verdicts={"small": True, "deny-external": False})
    with h.client:
        body = h.submit(make_request(h.project, effects=SENDS, sandbox=_sandbox([GAP]))).json()
    assert body["state"] == "denied" and body["decision"] == "auto_rejected", body
