"""QB-11: receipt tampering is never accepted; nonces are single-use across restarts."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from clauz3.approvals.keys import SigningKey, b64u_decode, b64u_encode
from clauz3.approvals.receipts import (
    ReceiptError,
    consent_sha256,
    issue_receipt,
    program_sha256,
    verify_receipt,
)
from clauz3.runs.ledger_schema import open_ledger
from clauz3.runs.nonces import consume, consume_now, is_consumed, prune
from clauz3.storage.migrations import transaction
from clauz3.storage.paths import ledger_path, project_sha256

PROGRAM = "def main() -> None:\n    pass\n"
GUARANTEES = ["emails.at_most(1)"]
COVERAGE = [{"domain": "email", "status": "covered", "missing_required": [], "missing_recommended": []}]
NOW = 1_700_000_000


def _issue(key: SigningKey, project: str, **over: object) -> str:
    args: dict[str, object] = dict(
        request_id="req_00000001", program_sha256=program_sha256(PROGRAM),
        consent_sha256=consent_sha256(COVERAGE, GUARANTEES, "main"), decision="approved_once",
        workspace_generation="g1", project_sha256=project_sha256(project), now=NOW)
    args.update(over)
    return issue_receipt(key, **args)[0]  # type: ignore[arg-type]


def _verify(receipt: str | None, key: SigningKey, proj: str, **over: object):
    args: dict[str, object] = dict(request_id="req_00000001", program=PROGRAM, guarantees=GUARANTEES,
                                   coverage=COVERAGE, target="main", project=proj,
                                   workspace_generation="g1", now=NOW + 10)
    args.update(over)
    return verify_receipt(receipt, key.verify_key, **args)  # type: ignore[arg-type]


def _code(fn, *a, **k) -> str:
    with pytest.raises(ReceiptError) as info:
        fn(*a, **k)
    return info.value.code


def _resign(key: SigningKey, payload: dict[str, object]) -> str:
    body = b64u_encode(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
    return f"c3r1.{body}.{b64u_encode(key.sign(f'c3r1.{body}'.encode()))}"


def test_valid_receipt_verifies(tmp_path: Path) -> None:
    key = SigningKey.generate()
    claims = _verify(_issue(key, str(tmp_path)), key, str(tmp_path))
    assert claims.decision == "approved_once" and len(claims.nonce) == 32
    assert claims.expires_at - claims.issued_at == 300


def test_tampering_is_rejected_with_its_reason(tmp_path: Path) -> None:
    key, other = SigningKey.generate(), SigningKey.generate()
    proj = str(tmp_path)
    good = _issue(key, proj)
    prefix, payload, sig = good.split(".")
    raw = bytearray(b64u_decode(payload))
    raw[10] ^= 1
    flipped = f"{prefix}.{b64u_encode(bytes(raw))}.{sig}"
    sig_raw = bytearray(b64u_decode(sig))
    sig_raw[0] ^= 1
    decoded = json.loads(b64u_decode(payload))
    cases = {
        "flipped payload byte": (flipped, {}, {"receipt_malformed", "receipt_bad_signature"}),
        "flipped signature": (f"{prefix}.{payload}.{b64u_encode(bytes(sig_raw))}", {}, {"receipt_bad_signature"}),
        "other key": (_issue(other, proj), {}, {"receipt_wrong_key"}),
        "forged kid": (_resign(other, {**decoded, "kid": key.verify_key.kid}), {}, {"receipt_bad_signature"}),
        "other request": (good, {"request_id": "req_00000002"}, {"receipt_not_bound"}),
        "other program": (good, {"program": PROGRAM + "#"}, {"receipt_not_bound"}),
        "changed coverage": (good, {"coverage": []}, {"receipt_not_bound"}),
        "changed guarantees": (good, {"guarantees": ["emails.at_most(2)"]}, {"receipt_not_bound"}),
        "changed target": (good, {"target": "other"}, {"receipt_not_bound"}),
        "other generation": (good, {"workspace_generation": "g2"}, {"receipt_not_bound"}),
        "other project": (good, {"project": str(tmp_path / "elsewhere")}, {"receipt_not_bound"}),
        "non-approving": (_resign(key, {**decoded, "decision": "rejected"}), {}, {"receipt_not_approving"}),
        "expired": (good, {"now": NOW + 301}, {"receipt_expired"}),
        "future issued_at": (_issue(key, proj, now=NOW + 100), {}, {"receipt_not_yet_valid"}),
        "prefix c3r0": ("c3r0" + good[4:], {}, {"receipt_malformed"}),
        "two segments": (f"{prefix}.{payload}", {}, {"receipt_malformed"}),
        "empty": ("", {}, {"receipt_missing"}),
        "missing": (None, {}, {"receipt_missing"}),
        "non-ascii": (good + "é", {}, {"receipt_malformed"}),
        "too long": (good + "A" * 5000, {}, {"receipt_malformed"}),
        "padded": (good + "=", {}, {"receipt_malformed"}),
    }
    accepted = []
    for name, (receipt, over, codes) in cases.items():
        try:
            _verify(receipt, key, proj, **over)
        except ReceiptError as exc:
            assert exc.code in codes, (name, exc.code)
        else:
            accepted.append(name)
    assert accepted == []


def test_issue_refuses_non_approving(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        _issue(SigningKey.generate(), str(tmp_path), decision="rejected")


def test_nonce_single_use_across_restart_and_race(tmp_path: Path) -> None:
    key = SigningKey.generate()
    proj = str(tmp_path)
    path = ledger_path(tmp_path / "data", proj)
    claims = _verify(_issue(key, proj), key, proj)
    conn = open_ledger(path)
    consume_now(conn, claims)
    assert is_consumed(conn, claims.nonce)
    assert _code(consume_now, conn, claims) == "receipt_replayed"
    conn.close()
    reopened = open_ledger(path)  # "after restarting every process"
    assert _code(consume_now, reopened, claims) == "receipt_replayed"
    # A fresh receipt for the same request id is refused too (request_id UNIQUE).
    again = _verify(_issue(key, proj), key, proj)
    assert again.nonce != claims.nonce
    assert _code(consume_now, reopened, again) == "receipt_replayed"
    reopened.close()

    racing = _verify(_issue(key, proj, request_id="req_racing01"), key, proj, request_id="req_racing01")
    results: list[str] = []
    barrier = threading.Barrier(4)

    def runner() -> None:
        conn = open_ledger(path)
        barrier.wait()
        try:
            consume_now(conn, racing)
            results.append("executed")
        except ReceiptError as exc:
            results.append(exc.code)
        finally:
            conn.close()

    threads = [threading.Thread(target=runner) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["executed", "receipt_replayed", "receipt_replayed", "receipt_replayed"]


def test_consume_inside_caller_transaction_rolls_back(tmp_path: Path) -> None:
    key = SigningKey.generate()
    claims = _verify(_issue(key, str(tmp_path)), key, str(tmp_path))
    conn = open_ledger(tmp_path / "runs.sqlite")
    with pytest.raises(RuntimeError), transaction(conn):
        consume(conn, claims)
        raise RuntimeError("the ledger claim failed")
    assert not is_consumed(conn, claims.nonce)
    consume_now(conn, claims)
    assert prune(conn, now=NOW + 300 + 24 * 3600 + 1) == 1
    assert (tmp_path / "runs.sqlite").stat().st_mode & 0o777 == 0o600
