"""03 §7 and §9: policy loading, precedence with profiles, remembering, curation, scoping."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.policies import EntailmentQuery, PolicyError, parse_policy
from clauz3.storage.paths import profiles_path

from .conftest import PROGRAM, Harness, make_request, roots

RID = "req_00000001"


def _policy(*rules: dict[str, Any]) -> bytes:
    return json.dumps({"version": 1, "imports": {"mail": "tools.email.trusted.contracts"},
                       "rules": list(rules)}).encode()


DENY = {"name": "deny-external", "decision": "auto_rejected", "reason": "external mail",
        "unless_proven": ["mail.only(['bob@example.com'])"]}
ALLOW = {"name": "small", "decision": "auto_approved", "reason": "one email to bob",
         "when_proven": ["mail.at_most(count=3)"]}


SEND_EMAIL = "tools.email.trusted.effects.send_email"
# What the email program can do (the prover's effect facts): issue 19 binds every automatic approval to it.
SENDS = {"complete": True, "effects": [{"effect": "send_email", "name": SEND_EMAIL, "domain": "email", "mock": True,
                                        "exact": True, "calls": [{"line": 9, "always": True, "args": {}}]}]}
# A remembered program that sent email (a planted history row's card, as the authority keeps it).
SENT_EMAIL_RECORD = {"presentation": {"proof": {"by": "submitter", "effects": [SEND_EMAIL]}}}


def email_request(project: Path, **over: Any) -> dict[str, Any]:
    """:func:`make_request` with the email program's effect facts (this authority has no verifier)."""
    return make_request(project, **{"effects": SENDS, **over})


def fake(verdicts: dict[str, Any]):
    """An explicit fake prover: rule name → True/False, an exception to raise, or a delay."""
    seen: list[EntailmentQuery] = []

    def entails(query: EntailmentQuery) -> dict[str, Any]:
        seen.append(query)
        verdict = verdicts[query.rule_name]
        if isinstance(verdict, Exception):
            raise verdict
        if isinstance(verdict, float):
            time.sleep(verdict)
            verdict = True
        return {"entailed": bool(verdict), "covers": [SEND_EMAIL]}  # every email rule speaks about send_email

    entails.seen = seen  # type: ignore[attr-defined]
    return entails


@pytest.mark.parametrize(("doc", "needle"), [
    ({"version": 1, "rules": [{**ALLOW, "decision": "approved"}]}, "policy rule 1 (small)"),
    ({"version": 1, "rules": [{**ALLOW, "when_proven": None, "unless_proven": ["x"]}]}, "policy rule 1 (small)"),
    ({"version": 1, "rules": [{**ALLOW, "when_proven": ["mail.at_most("]}]}, "policy rule 1 (small)"),
    ({"version": 1, "rules": [ALLOW, {**ALLOW}]}, "policy rule 2 (small)"),
    ({"version": 1, "rules": [{**ALLOW, "name": f"r{i}"} for i in range(201)]}, "more than 200 rules"),
    ({"version": 2, "rules": []}, "version"),
    ({"version": 1, "rules": [], "extra": 1}, "unknown policy key"),
    ({"version": 1, "rules": [{**ALLOW, "when": ["x"]}]}, "unknown key 'when'"),
    ({"version": 1, "imports": {"mail": "not a module"}, "rules": []}, "dotted module"),
])
def test_policy_validation(doc: dict[str, Any], needle: str) -> None:
    with pytest.raises(PolicyError) as info:
        parse_policy(json.dumps(doc).encode())
    assert needle in str(info.value)


def _harness(data: Path, project: Path, policy: bytes | None = None, entails: Any = None, **config: Any) -> Harness:
    if policy is not None:
        config["policy"] = parse_policy(policy)
    if entails is not None:
        config["entails"] = entails
    return Harness(data, project, **config)


def test_entailed_allow_rule_auto_approves(data_dir: Path, project: Path) -> None:
    entails = fake({"small": True})
    h = _harness(data_dir, project, _policy(ALLOW), entails)
    with h.client:
        body = h.submit(email_request(h.project)).json()
    assert body["state"] == "approved" and body["decision"] == "auto_approved" and body["decided_by"] == "policy"
    assert body["feedback"] == "one email to bob" and body["rule"]["name"] == "small"
    assert body["receipt"].startswith("c3r1.")
    query = entails.seen[0]
    assert query.clauses == ("mail.at_most(count=3)",) and query.imports == {"mail": "tools.email.trusted.contracts"}
    assert query.trusted_roots == tuple(roots(project)[0]) and query.program == PROGRAM


def test_not_entailed_allow_goes_to_human(data_dir: Path, project: Path) -> None:
    h = _harness(data_dir, project, _policy(ALLOW), fake({"small": False}))
    with h.client:
        assert h.submit(email_request(h.project)).json()["state"] == "pending"


def test_unprovable_deny_beats_allow(data_dir: Path, project: Path) -> None:
    h = _harness(data_dir, project, _policy(ALLOW, DENY), fake({"small": True, "deny-external": False}))
    with h.client:
        body = h.submit(email_request(h.project)).json()
    assert body["decision"] == "auto_rejected" and body["rule"]["name"] == "deny-external"
    assert "receipt" not in body and body["receipt_issued"] is False


def test_default_entailment_is_conservative(data_dir: Path, project: Path) -> None:
    h = _harness(data_dir, project, _policy(ALLOW))
    with h.client:
        assert h.submit(email_request(h.project)).json()["state"] == "pending"
    h2 = _harness(data_dir, project, _policy(DENY))
    with h2.client:
        assert h2.submit(email_request(h2.project)).json()["decision"] == "auto_rejected"


@pytest.mark.parametrize("trouble", [2.0, RuntimeError("prover crashed")])
def test_undecidable_deny_blocks_automatic_approval(data_dir: Path, project: Path, trouble: Any) -> None:
    h = _harness(data_dir, project, _policy(DENY, ALLOW), fake({"deny-external": trouble, "small": True}),
                 policy_timeout=0.3)
    with h.client:
        body = h.submit(email_request(h.project)).json()
    assert body["state"] == "pending"
    assert [u["rule"] for u in body["automatic"]["undecidable"]] == ["deny-external"]


def test_policy_file_edits_after_load_have_no_effect(tmp_path: Path) -> None:
    from clauz3.approvals.policies import load_policy

    path = tmp_path / "policy.json"
    path.write_bytes(_policy(ALLOW))
    policy = load_policy(path)
    path.write_bytes(_policy(DENY))
    assert [r.name for r in policy.rules] == ["small"]


# ---------------------------------------------------------------------------------- profiles


def _profiled(data: Path, project: Path, **config: Any) -> Harness:
    return _harness(data, project, profiles=True, **config)


def test_approve_and_remember_then_same_contract_other_body(data_dir: Path, project: Path) -> None:
    h = _profiled(data_dir, project)
    with h.client:
        first = h.submit(email_request(h.project)).json()
        assert first["profile"]["eligible"] is True
        assert h.decide(RID, {"decision": "approved_once", "remember": True}).json()["decision"] == \
            "approved_remember"
        other_body = PROGRAM.replace("Hi from clauz3", "Another body")
        again = h.submit(email_request(h.project, request_id="req_00000002", program=other_body)).json()
        assert again["decision"] == "auto_approved" and again["decided_by"] == "profile"
        assert again["rule"]["reason"] == "Remembered decision for this exact contract in this project"
        assert again["receipt_nonce"] != h.client.get(f"/api/requests/{RID}", headers=h.appr()).json()[
            "receipt_nonce"]
        literal = PROGRAM.replace("at_most(1)", "at_most(2)")
        changed = h.submit(email_request(h.project, request_id="req_00000003", program=literal,
                                        guarantees=['emails.only(["bob@example.com"])', "emails.at_most(2)"])).json()
        assert changed["state"] == "pending"
        imported = "import math\n" + PROGRAM
        assert h.submit(email_request(h.project, request_id="req_00000004", program=imported)).json()[
            "state"] == "pending"
        effects = h.project / "tools" / "email" / "trusted" / "effects.py"
        effects.write_text(effects.read_text() + "\n# edited\n")
        assert h.submit(email_request(h.project, request_id="req_00000005")).json()["state"] == "pending"


def test_reject_and_remember_beats_older_allow_and_disable_reexposes(data_dir: Path, project: Path) -> None:
    h = _profiled(data_dir, project)
    with h.client:
        h.submit(email_request(h.project))
        h.decide(RID, {"decision": "approved_remember"})
        h.submit(email_request(h.project, request_id="req_00000002", program=PROGRAM + "\n"))
        # the second was auto-approved by the allow; remember a rejection through a third (human) one
        h.authority.set_paused(None, True)
        third = h.submit(email_request(h.project, request_id="req_00000003", program=PROGRAM + "\n\n")).json()
        assert third["state"] == "pending" and third["approvals_paused"] is True
        assert third["automatic"]["suppressed"]["source"] == "profile"
        h.authority.set_paused(None, False)
        deny = h.decide("req_00000003", {"decision": "rejected", "remember": True}).json()
        deny_rule = deny["rule"]["id"]
        fourth = h.submit(email_request(h.project, request_id="req_00000004", program=PROGRAM + "#\n")).json()
        assert fourth["decision"] == "auto_rejected" and fourth["rule"]["id"] == deny_rule
        assert h.client.post("/api/profile/disable", json={"rule_id": deny_rule}, headers=h.appr()).json() == \
            {"ok": True}
        fifth = h.submit(email_request(h.project, request_id="req_00000005", program=PROGRAM + "##\n")).json()
        assert fifth["decision"] == "auto_approved"


def test_not_rememberable_cases_and_concurrent_remember(data_dir: Path, project: Path) -> None:
    h = _profiled(data_dir, project)
    with h.client:
        nonliteral = PROGRAM.replace('emails.only(["bob@example.com"])', "emails.only(ADDRESSES)")
        body = email_request(h.project, program=nonliteral, guarantees=["emails.only(ADDRESSES)", "emails.at_most(1)"])
        record = h.submit(body).json()
        assert record["profile"]["eligible"] is False
        assert record["profile"]["reason"].startswith("This contract must be approved each time: ")
        refused = h.decide(RID, {"decision": "approved_remember"})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "not_rememberable"
        h.submit(email_request(h.project, request_id="req_00000002"))
        more = h.decide("req_00000002", {"decision": "request_more", "remember": True})
        assert more.status_code == 400 and more.json()["error"]["code"] == "not_rememberable"
        assert h.decide("req_00000002", {"decision": "approved_once"}).status_code == 200
        snapshot = h.client.get("/api/profile", headers=h.appr()).json()
        row = next(x for x in snapshot["history"] if x["record"]["request_id"] == "req_00000002")
        assert "receipt" not in json.dumps(snapshot)

        async def race() -> list[str]:
            return await asyncio.gather(*[asyncio.to_thread(h.authority.remember, row["id"]) for _ in range(4)])

        ids = asyncio.run(race())
        assert len(set(ids)) == 1
        again = h.client.post("/api/profile/remember", json={"history_id": row["id"]}, headers=h.appr())
        assert again.json() == {"rule_id": ids[0]}
        unknown = h.client.post("/api/profile/remember", json={"history_id": "hst_nope"}, headers=h.appr())
        assert unknown.status_code == 404
        assert h.decide(RID, {"decision": "approved_once"}).status_code == 200
        later = h.client.get("/api/profile", headers=h.appr()).json()
        ineligible = next(x for x in later["history"] if x["record"]["request_id"] == RID)
        assert ineligible["signature"] is None
        refused = h.client.post("/api/profile/remember", json={"history_id": ineligible["id"]}, headers=h.appr())
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "not_rememberable"
    rules = sqlite3.connect(profiles_path(data_dir)).execute("SELECT count(*) FROM rules").fetchone()[0]
    assert rules == 1


def test_profile_store_scoping_privacy_and_index(data_dir: Path, project: Path, tmp_path: Path) -> None:
    h = _profiled(data_dir, project)
    with h.client:
        h.submit(email_request(h.project))
        h.decide(RID, {"decision": "approved_remember"})
        receipt = h.client.get(f"/api/requests/{RID}", headers=h.sub()).json()["receipt"]
        signature = h.authority.lookup(h.authority.submitter_for(h.token), RID).profile["signature"]
        store = h.authority.profiles
        assert store is not None
        assert store.match(str(tmp_path), signature) is None
        assert store.match(h.authority.project, signature) is not None
        assert store.snapshot(str(tmp_path))["history"] == []
    path = profiles_path(data_dir)
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    conn = sqlite3.connect(path)
    dump = "\n".join(conn.iterdump())
    assert receipt not in dump and receipt.split(".")[2] not in dump and h.token not in dump
    assert [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY id")] == [
        "profiles-0001-history-rules", "profiles-0002-clear-user-version"]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0  # the recorded list alone is the version
    plan = " ".join(str(r) for r in conn.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM rules WHERE project = ? AND signature = ? AND enabled = 1", ("p", "s")))
    assert "rules_match" in plan


def test_profiles_off_snapshot_is_404(harness: Harness) -> None:
    response = harness.client.get("/api/profile", headers=harness.appr())
    assert response.status_code == 404


def test_other_schema_version_disables_profiles_visibly(data_dir: Path, project: Path) -> None:
    path = profiles_path(data_dir)
    path.parent.mkdir(parents=True, mode=0o700)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE _migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT)")
    conn.execute("INSERT INTO _migrations (name) VALUES ('profiles-0001-history-rules'), ('profiles-0099-future')")
    conn.commit()
    conn.close()
    path.chmod(0o600)
    before = path.read_bytes()
    authority = ApprovalAuthority(AuthorityConfig(data_dir=data_dir, project=str(project), profiles=True))
    assert authority.profiles is None
    assert "newer clauz3 (unknown migrations: profiles-0099-future)" in str(authority.profiles_error)
    assert path.read_bytes() == before  # never migrated over
    assert authority.service_info()["profiles"]["enabled"] is False


@pytest.mark.parametrize("combo", list(itertools.product([False, True], repeat=4)))
def test_sixteen_combinations_follow_precedence(data_dir: Path, project: Path, combo: tuple[bool, ...]) -> None:
    policy_deny, profile_deny, policy_allow, profile_allow = combo
    entails = fake({"deny-external": not policy_deny, "small": policy_allow})
    h = _profiled(data_dir, project, policy=_policy(DENY, ALLOW), entails=entails)
    with h.client:
        store = h.authority.profiles
        assert store is not None
        signature = _signature(h)
        for effect, wanted in (("deny", profile_deny), ("allow", profile_allow)):
            if wanted:
                hid, _ = store.append(project=h.authority.project, record=SENT_EMAIL_RECORD, signature=signature, basis={},
                                      decision="rejected" if effect == "deny" else "approved_once",
                                      decided_by="human")
                store.remember(h.authority.project, hid)
        body = h.submit(email_request(h.project)).json()
    expected: tuple[str | None, str | None]
    if policy_deny:
        expected = ("auto_rejected", "policy")
    elif profile_deny:
        expected = ("auto_rejected", "profile")
    elif policy_allow:
        expected = ("auto_approved", "policy")
    elif profile_allow:
        expected = ("auto_approved", "profile")
    else:
        expected = (None, None)
    assert (body["decision"], body["decided_by"]) == expected


def _signature(h: Harness) -> str:
    from clauz3.approvals.layerscan import bind_guarantee, program_imports, scan_layer
    from clauz3.approvals.requests import parse_request
    from clauz3.approvals.signature import compute_signature

    request = parse_request(email_request(h.project))
    conv = h.authority._conversations["standalone"]
    scan = scan_layer(conv.layer.trusted_roots, conv.layer.import_roots)
    imports, names = program_imports(request.program)
    bound = [bind_guarantee(g, names, scan) for g in request.guarantees]
    return compute_signature(request, project=conv.layer.project, scan=scan, bound=bound, imports=imports).signature


def test_paused_conversation_still_applies_denials(data_dir: Path, project: Path) -> None:
    h = _harness(data_dir, project, _policy(DENY, ALLOW), fake({"deny-external": False, "small": True}))
    h.authority.set_paused(None, True)
    with h.client:
        assert h.submit(email_request(h.project)).json()["decision"] == "auto_rejected"
    h2 = _harness(data_dir, project, _policy(ALLOW), fake({"small": True}))
    h2.authority.set_paused(None, True)
    with h2.client:
        body = h2.submit(email_request(h2.project)).json()
    assert body["state"] == "pending" and body["approvals_paused"] is True
    assert body["automatic"]["suppressed"]["source"] == "policy"


def test_remember_errors_are_approval_errors(data_dir: Path, project: Path) -> None:
    from clauz3.approvals.app import profile_id

    with pytest.raises(ApprovalError) as info:  # the edge refuses it before the core sees it
        profile_id({"history_id": 123}, "history_id")
    assert info.value.code == "invalid_request"
    h = _profiled(data_dir, project)
    with h.client:
        refused = h.client.post("/api/profile/remember", json={"history_id": 123}, headers=h.appr())
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_request"


def test_forget_project_drops_only_that_projects_rules_and_history(data_dir: Path, tmp_path: Path) -> None:
    from clauz3.approvals.profiles import ProfileStore, forget_project

    gone, kept = tmp_path / "gone", tmp_path / "kept"
    gone.mkdir()
    kept.mkdir()
    store = ProfileStore(profiles_path(data_dir))
    for project in (str(gone), str(kept)):
        store.append(project=project, record={"request_id": "r"}, signature="sig", basis=None,
                     decision="rejected", decided_by="human", remember=True)
        store.append(project=project, record={"request_id": "s"}, signature=None, basis=None,
                     decision=None, decided_by=None)
    store.forget_project(str(gone))
    assert store.snapshot(str(gone)) == {"project": str(gone), "rules": [], "history": []}
    assert len(store.snapshot(str(kept))["rules"]) == 1 and len(store.snapshot(str(kept))["history"]) == 2
    # Without an authority: a separate connection, the project path canonicalised like the authority's.
    (tmp_path / "alias").symlink_to(kept)
    forget_project(data_dir, tmp_path / "alias")
    assert store.snapshot(str(kept)) == {"project": str(kept), "rules": [], "history": []}
    store.close()
    forget_project(tmp_path / "no-data", str(kept))
    assert not (tmp_path / "no-data").exists()
