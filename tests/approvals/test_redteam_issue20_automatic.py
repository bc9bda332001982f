"""Red team of issue 20 (w2): no automatic approval decides a program whose provenance nobody checked.

Finding (fixed in ``approvals/authority.py``): the authority asks the host for a conversation's transcript index;
for a conversation the host does not hold open (a bridge left over from a switch), the answer was None and the
card had no warning, so a policy allow decided the program although its values could be from anything the agent
read. Now such a card says it could not check, and a person decides. A standalone service (no conversation id)
is unchanged: it never had a transcript. The authority is the real one over HTTP on 127.0.0.1 (the conftest
harness); the policy's entailment is the explicit fake of the policy tests.
"""

from __future__ import annotations

from pathlib import Path

from clauz3.approvals.policies import parse_policy
from clauz3.approvals.provenance import NOT_OPEN

from .conftest import Harness, roots
from .test_policies_profiles import ALLOW, _policy, email_request, fake


def _with_host_lookup(data: Path, project: Path) -> Harness:
    return Harness(data, project, policy=parse_policy(_policy(ALLOW)), entails=fake({"small": True}),
                   provenance=lambda conversation_id: None)  # the host holds no conversation open


def test_a_conversation_the_host_does_not_hold_is_never_decided_by_a_policy(data_dir: Path, project: Path) -> None:
    h = _with_host_lookup(data_dir, project)
    trusted, imports = roots(project)
    h.token = h.authority.register_conversation("conv-left-over", trusted, imports)
    with h.client:
        body = h.submit(email_request(h.project)).json()
    assert body["state"] == "pending" and body["decided_by"] is None, body
    assert body["automatic"]["suppressed"]["reason"] == "provenance", body["automatic"]
    assert body["presentation"]["provenance"]["warnings"] == [NOT_OPEN]


def test_a_standalone_service_keeps_its_policy(data_dir: Path, project: Path) -> None:
    h = _with_host_lookup(data_dir, project)
    with h.client:
        body = h.submit(email_request(h.project)).json()
    assert body["state"] == "approved" and body["decided_by"] == "policy", body
