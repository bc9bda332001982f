"""03 §5–§6 and QB-12: strict requests, states, first-decision-final, idempotency, expiry."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
from clauz3.approvals.decisions import HUMAN_DECISIONS, HumanDecision
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.receipts import verify_receipt
from clauz3.approvals.requests import parse_request

from .conftest import Harness, make_request, roots

RID = "req_00000001"


def test_submit_decide_receipt_views(harness: Harness) -> None:
    h = harness
    created = h.submit(make_request(h.project))
    assert created.status_code == 201 and created.json()["state"] == "pending"
    assert "receipt" not in created.json()
    decided = h.decide(RID, {"decision": "approved_once", "feedback": "fine"})
    assert decided.status_code == 200 and decided.json()["state"] == "approved"
    assert "receipt" not in decided.json() and decided.json()["receipt_issued"] is True
    mine = h.client.get(f"/api/requests/{RID}", headers=h.sub()).json()
    body = make_request(h.project)
    claims = verify_receipt(mine["receipt"], h.authority.verify_key, request_id=RID, program=body["program"],
                            guarantees=body["guarantees"], coverage=body["coverage"], target="main",
                            project=str(h.project), workspace_generation=h.authority.generation)
    assert claims.nonce == mine["receipt_nonce"] and mine["feedback"] == "fine"
    approver = h.client.get(f"/api/requests/{RID}", headers=h.appr()).json()
    assert "receipt" not in approver
    listing = h.client.get("/api/requests?state=approved", headers=h.appr()).json()["requests"]
    assert [r["request_id"] for r in listing] == [RID] and "receipt" not in listing[0]


@pytest.mark.parametrize("bad", ["approved", "Approved_Once", "approve", "", None, 1, ["approved_once"],
                                 "auto_approved", "auto_rejected"])
def test_unknown_decisions_are_400_and_change_nothing(harness: Harness, bad: object) -> None:
    h = harness
    h.submit(make_request(h.project))
    response = h.decide(RID, {"decision": bad})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "unknown_decision" and error["allowed"] == list(HUMAN_DECISIONS)
    assert h.client.get(f"/api/requests/{RID}", headers=h.appr()).json()["state"] == "pending"
    assert h.decide(RID, {"decision": "rejected"}).json()["state"] == "denied"


def test_decision_body_is_strict_and_echoes_nothing(harness: Harness) -> None:
    h = harness
    h.submit(make_request(h.project))
    response = h.decide(RID, {"decision": "approved_once", "receipt": "c3r1.SECRETVALUE.x"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request"
    assert "SECRETVALUE" not in response.text
    for body in ({"decision": "approved_once", "feedback": "x" * 4001}, {"decision": "approved_once",
                 "remember": "yes"}, [], "approved_once", {}):
        assert h.decide(RID, body).status_code == 400
    bad_json = h.client.post(f"/api/requests/{RID}/decision", content=b"{nope",
                             headers={**h.appr(), "Content-Type": "application/json"})
    assert bad_json.status_code == 400 and bad_json.json()["error"]["code"] == "invalid_request"
    assert h.client.get(f"/api/requests/{RID}", headers=h.appr()).json()["state"] == "pending"


def test_second_decision_unknown_id_and_final_states(harness: Harness) -> None:
    h = harness
    h.submit(make_request(h.project))
    assert h.decide(RID, {"decision": "rejected_contract"}).status_code == 200
    again = h.decide(RID, {"decision": "approved_once"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_decided"
    assert again.json()["error"]["state"] == "denied"
    assert h.client.get(f"/api/requests/{RID}", headers=h.appr()).json()["decision"] == "rejected_contract"
    missing = h.decide("req_unknown01", {"decision": "approved_once"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    h.submit(make_request(h.project, request_id="req_00000002"))
    cancel = h.client.post("/api/requests/req_00000002/cancel", json={}, headers=h.sub())
    assert cancel.status_code == 200 and cancel.json()["cancel_reason"] == "submitter_cancelled"
    late = h.decide("req_00000002", {"decision": "approved_once"})
    assert late.status_code == 409 and late.json()["error"]["code"] == "not_pending"


def test_schema_and_claim_errors(harness: Harness) -> None:
    h = harness
    cases = [
        (make_request(h.project, extra=1), 400, "invalid_request"),
        (make_request(h.project, request_id="short"), 400, "invalid_request"),
        (make_request(h.project, execution_timeout_seconds=301), 400, "invalid_request"),
        (make_request(h.project, execution_timeout_seconds=True), 400, "invalid_request"),
        (make_request(h.project, trusted_roots=["relative/path"]), 400, "invalid_request"),
        (make_request(h.project, program_sha256="0" * 64), 400, "program_sha256_mismatch"),
        (make_request(h.project, proofs=[{"name": "g", "conclusion": "refuted", "description": ""}]), 400,
         "unproved_request"),
        (make_request(h.project, coverage=[{"domain": "email", "status": "required_gap",
                                            "missing_required": ["x"], "missing_recommended": []}]), 400,
         "required_coverage_missing"),
    ]
    for body, status, code in cases:
        response = h.submit(body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), body
    assert "extra" in h.submit(make_request(h.project, extra=1)).json()["error"]["message"]
    big = b'{"x":"' + b"a" * (1024 * 1024) + b'"}'
    response = h.client.post("/api/requests", content=big, headers={**h.sub(), "Content-Type": "application/json"})
    assert response.status_code == 413
    assert h.authority.list() == []


def test_layer_authorisation(harness: Harness, tmp_path: Path) -> None:
    h = harness
    trusted, imports = roots(h.project)
    (h.project / "tools" / "email" / "trusted" / "sub").mkdir()
    variants = [
        {"trusted_roots": [*trusted, trusted[0]]},
        {"trusted_roots": []},
        {"trusted_roots": [trusted[0] + "/sub"]},
        {"import_roots": [*imports, str(tmp_path)]},
        {"import_roots": [str(tmp_path), *imports]},
    ]
    for over in variants:
        response = h.submit(make_request(h.project, **over))
        assert response.status_code == 403 and response.json()["error"]["code"] == "layer_not_authorized"
    assert h.authority.list() == []


def test_idempotency_and_pending_limit(harness: Harness) -> None:
    h = harness
    first = h.submit(make_request(h.project))
    same = h.submit(make_request(h.project))
    assert (first.status_code, same.status_code) == (201, 200)
    assert len(h.authority.list()) == 1
    other = h.submit(make_request(h.project, execution_timeout_seconds=5))
    assert other.status_code == 409 and other.json()["error"]["code"] == "request_id_conflict"
    for i in range(2, 17):
        assert h.submit(make_request(h.project, request_id=f"req_{i:08d}")).status_code == 201
    seventeenth = h.submit(make_request(h.project, request_id="req_00000099"))
    assert seventeenth.status_code == 429 and seventeenth.json()["error"]["code"] == "too_many_pending"


def test_retried_approved_request_gets_fresh_receipt_when_old_is_near_expiry(harness: Harness) -> None:
    h = harness
    h.submit(make_request(h.project))
    h.decide(RID, {"decision": "approved_once"})
    first = h.submit(make_request(h.project)).json()
    assert h.submit(make_request(h.project)).json()["receipt_nonce"] == first["receipt_nonce"]
    record = h.authority.lookup(h.authority.submitter_for(h.token), RID)
    record.receipt_expires_at = int(time.time()) + 30
    again = h.submit(make_request(h.project)).json()
    assert again["receipt_nonce"] != first["receipt_nonce"] and again["receipt"] != first["receipt"]


# ----------------------------------------------------------------------- in-process (async) API


def _authority(data: Path, project: Path, **config: object) -> tuple[ApprovalAuthority, str]:
    authority = ApprovalAuthority(AuthorityConfig(data_dir=data, project=str(project), **config))  # type: ignore[arg-type]
    token = authority.register_conversation("conv-a", *roots(project))
    return authority, token


async def test_waiter_sees_decision_and_concurrent_decisions(data_dir: Path, project: Path) -> None:
    authority, token = _authority(data_dir, project)
    me = authority.submitter_for(token)
    assert me is not None
    changes: list[str] = []
    authority.on_change(lambda view: changes.append(view["state"]))
    await authority.submit(me, parse_request(make_request(project)))
    waiter = asyncio.create_task(authority.get(me, RID, wait=30))
    await asyncio.sleep(0)
    results = await asyncio.gather(authority.decide(RID, HumanDecision("approved_once")),
                                   authority.decide(RID, HumanDecision("rejected")), return_exceptions=True)
    ok = [r for r in results if not isinstance(r, Exception)]
    errors = [r for r in results if isinstance(r, ApprovalError)]
    assert len(ok) == 1 and len(errors) == 1 and errors[0].code == "already_decided"
    started = time.monotonic()
    record = await asyncio.wait_for(waiter, 1)
    assert time.monotonic() - started < 0.1 and record.state == "approved"
    assert authority.view(me, record)["receipt"].startswith("c3r1.")
    assert changes == ["pending", "approved"]


async def test_expiry_and_submitter_gone(data_dir: Path, project: Path) -> None:
    authority, token = _authority(data_dir, project, submitter_grace_seconds=0.3)
    me = authority.submitter_for(token)
    assert me is not None
    await authority.submit(me, parse_request(make_request(project, approval_timeout_seconds=1)))
    record = await authority.get(me, RID, wait=5)
    assert record.state == "expired" and time.time() - record.expires_at < 1.0
    with pytest.raises(ApprovalError) as info:
        await authority.decide(RID, HumanDecision("approved_once"))
    assert info.value.code == "not_pending"
    _, gone = await authority.submit(me, parse_request(make_request(project, request_id="req_00000002")))
    await asyncio.sleep(0.6)
    assert gone.state == "cancelled" and gone.cancel_reason == "submitter_gone"


async def test_workspace_switch_and_conversation_end(data_dir: Path, project: Path, tmp_path: Path) -> None:
    authority, token = _authority(data_dir, project)
    me = authority.submitter_for(token)
    assert me is not None
    old_generation = authority.generation
    _, record = await authority.submit(me, parse_request(make_request(project, workspace_generation=old_generation)))
    other = tmp_path / "other"
    other.mkdir()
    new_generation = authority.switch_workspace(str(other))
    assert new_generation != old_generation
    assert record.state == "cancelled" and record.cancel_reason == "workspace_switched"
    assert authority.submitter_for(token) is None
    token2 = authority.register_conversation("conv-a", *roots(project))
    me2 = authority.submitter_for(token2)
    assert me2 is not None
    with pytest.raises(ApprovalError) as info:
        await authority.submit(me2, parse_request(make_request(project, request_id="req_00000003",
                                                 workspace_generation=old_generation)))
    assert info.value.code == "workspace_changed"
    _, pending = await authority.submit(me2, parse_request(make_request(project, request_id="req_00000004")))
    authority.end_conversation("conv-a", "bridge_gone")
    assert pending.state == "cancelled" and pending.cancel_reason == "bridge_gone"
    await authority.close()
    with pytest.raises(ApprovalError) as info:
        await authority.submit(me2, parse_request(make_request(project, request_id="req_00000005")))
    assert info.value.code == "service_stopping"
