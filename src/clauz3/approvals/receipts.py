"""Receipts (03 §11): ``c3r1.<payload>.<signature>``, Ed25519 over ``c3r1.<payload>``.

The authority signs one when a request is approved; the worker verifies it before executing the
exact program that was proved, bound to its request, consent, generation and project, to the content
of the layer the card described (``layer_sha256``) and to the data dir whose ledger consumes it
(``data_sha256``), so another ``CLAUZ3_HOME`` or an edited library never accepts it (issue 11 §2).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# The digests a receipt binds live with canonical JSON: a request is built without loading cryptography.
from clauz3.approvals.canonical import canonical_json, consent_sha256, program_sha256, sha256_text
from clauz3.approvals.decisions import ALL_DECISIONS, is_approving
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.keys import SigningKey, VerifyKey, b64u_decode, b64u_encode
from clauz3.storage.paths import project_sha256 as _project_sha256

PREFIX = "c3r1"
MAX_RECEIPT_CHARS = 4096
LIFETIME_SECONDS = 300
CLOCK_SKEW_SECONDS = 5
_HEX32 = re.compile(r"^[0-9a-f]{32}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_HEX16 = re.compile(r"^[0-9a-f]{16}$")


class ReceiptError(ApprovalError):
    """Verification failed; ``code`` is the RCP-1 reason (``receipt_missing`` … ``receipt_replayed``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def data_sha256(data_dir: str | os.PathLike[str]) -> str:
    """The issuing data dir (its run ledgers consume the receipt), by its resolved path."""
    return sha256_text(os.path.realpath(os.fspath(data_dir)))


@dataclass(frozen=True)
class ReceiptClaims:
    kid: str
    request_id: str
    program_sha256: str
    consent_sha256: str
    decision: str
    nonce: str
    issued_at: int
    expires_at: int
    workspace_generation: str | None
    project_sha256: str
    layer_sha256: str | None = None
    data_sha256: str | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "v": 1, "kid": self.kid, "request_id": self.request_id, "program_sha256": self.program_sha256,
            "consent_sha256": self.consent_sha256, "decision": self.decision, "nonce": self.nonce,
            "issued_at": self.issued_at, "expires_at": self.expires_at,
            "workspace_generation": self.workspace_generation, "project_sha256": self.project_sha256,
            "layer_sha256": self.layer_sha256, "data_sha256": self.data_sha256,
        }


def new_nonce() -> str:
    return secrets.token_hex(16)


def issue_receipt(
    key: SigningKey,
    *,
    request_id: str,
    program_sha256: str,
    consent_sha256: str,
    decision: str,
    workspace_generation: str | None,
    project_sha256: str,
    now: float | None = None,
    lifetime: int = LIFETIME_SECONDS,
    layer_sha256: str | None = None,
    data_sha256: str | None = None,
) -> tuple[str, ReceiptClaims]:
    """Sign a fresh receipt (new nonce) for an approving decision."""
    if not is_approving(decision):
        raise ValueError(f"receipts are issued only for approving decisions, not {decision!r}")
    issued = int(time.time() if now is None else now)
    claims = ReceiptClaims(
        kid=key.verify_key.kid, request_id=request_id, program_sha256=program_sha256,
        consent_sha256=consent_sha256, decision=decision, nonce=new_nonce(), issued_at=issued,
        expires_at=issued + lifetime, workspace_generation=workspace_generation, project_sha256=project_sha256,
        layer_sha256=layer_sha256, data_sha256=data_sha256,
    )
    signed = f"{PREFIX}.{b64u_encode(canonical_json(claims.payload()))}"
    signature = b64u_encode(key.sign(signed.encode("ascii")))
    return f"{signed}.{signature}", claims


def _malformed(why: str) -> ReceiptError:
    return ReceiptError("receipt_malformed", f"receipt is malformed: {why}")


def parse_receipt(receipt: str) -> tuple[ReceiptClaims, bytes, bytes]:
    """Split and decode without checking the signature; returns (claims, signed bytes, signature)."""
    if not isinstance(receipt, str) or len(receipt) > MAX_RECEIPT_CHARS or not receipt.isascii():
        raise _malformed("not ASCII text of at most 4096 characters")
    parts = receipt.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise _malformed(f"expected {PREFIX}.<payload>.<signature>")
    try:
        payload_bytes = b64u_decode(parts[1])
        signature = b64u_decode(parts[2])
        payload = json.loads(payload_bytes.decode("ascii"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise _malformed("payload or signature does not decode") from exc
    if not isinstance(payload, dict):
        raise _malformed("payload is not an object")
    claims = _claims_from(payload)
    try:
        if canonical_json(payload) != payload_bytes:
            raise _malformed("payload is not canonical JSON")
    except ValueError as exc:
        raise _malformed("payload holds non-integer numbers") from exc
    return claims, f"{parts[0]}.{parts[1]}".encode("ascii"), signature


_FIELDS = {"v", "kid", "request_id", "program_sha256", "consent_sha256", "decision", "nonce",
           "issued_at", "expires_at", "workspace_generation", "project_sha256", "layer_sha256", "data_sha256"}


def _claims_from(p: dict[str, Any]) -> ReceiptClaims:
    if set(p) != _FIELDS or p["v"] != 1 or type(p["v"]) is not int:
        raise _malformed("unexpected payload fields or version")

    def text(name: str, pattern: re.Pattern[str] | None = None) -> str:
        value = p[name]
        if type(value) is not str or (pattern is not None and not pattern.match(value)):
            raise _malformed(f"field {name} is invalid")
        return value

    def integer(name: str) -> int:
        value = p[name]
        if type(value) is not int:
            raise _malformed(f"field {name} is not an integer")
        return value

    generation = p["workspace_generation"]
    if generation is not None and type(generation) is not str:
        raise _malformed("field workspace_generation is invalid")
    for name in ("layer_sha256", "data_sha256"):
        if p[name] is not None and (type(p[name]) is not str or not _HEX64.match(p[name])):
            raise _malformed(f"field {name} is invalid")
    decision = text("decision")
    if decision not in ALL_DECISIONS:
        raise _malformed("field decision is not a known decision")
    return ReceiptClaims(
        kid=text("kid", _HEX16), request_id=text("request_id"), program_sha256=text("program_sha256", _HEX64),
        consent_sha256=text("consent_sha256", _HEX64), decision=decision, nonce=text("nonce", _HEX32),
        issued_at=integer("issued_at"), expires_at=integer("expires_at"), workspace_generation=generation,
        project_sha256=text("project_sha256", _HEX64), layer_sha256=p["layer_sha256"], data_sha256=p["data_sha256"],
    )


def verify_receipt(
    receipt: str | None,
    key: VerifyKey,
    *,
    request_id: str,
    program: str,
    guarantees: Sequence[str],
    coverage: Sequence[Any],
    target: str,
    project: str,
    workspace_generation: str | None = None,
    now: float | None = None,
    layer_sha256: str | None = None,
    data_dir: str | None = None,
) -> ReceiptClaims:
    """RCP-1 checks in order, except replay (that is :func:`clauz3.runs.nonces.consume`).

    ``program`` is the exact source about to execute; ``guarantees``/``coverage``/``target`` are the
    worker's own; ``project`` the worker's workspace root; ``workspace_generation`` the one it sent;
    ``layer_sha256`` the hash of the layer copy it loaded and ``data_dir`` the one whose ledger will
    consume the receipt (a worker passes both; a receipt without them then never binds).
    """
    if receipt is None or receipt == "":
        raise ReceiptError("receipt_missing", "no receipt was issued for this approval")
    claims, signed, signature = parse_receipt(receipt)
    if claims.kid != key.kid:
        raise ReceiptError("receipt_wrong_key", "receipt was signed by another key than the configured one")
    if not key.verify(signature, signed):
        raise ReceiptError("receipt_bad_signature", "receipt signature does not verify")
    bound = (
        claims.request_id == request_id
        and claims.program_sha256 == program_sha256(program)
        and claims.consent_sha256 == consent_sha256(coverage, guarantees, target)
        and (workspace_generation is None or claims.workspace_generation == workspace_generation)
        and claims.project_sha256 == _project_sha256(project)
        and (layer_sha256 is None or claims.layer_sha256 == layer_sha256)
        and (data_dir is None or claims.data_sha256 == data_sha256(data_dir))
    )
    if not bound:
        raise ReceiptError("receipt_not_bound", "receipt does not belong to this request, program, project, "
                                                "library content or data directory")
    if not is_approving(claims.decision):
        raise ReceiptError("receipt_not_approving", f"receipt decision {claims.decision} does not approve")
    current = time.time() if now is None else now
    if claims.issued_at > current + CLOCK_SKEW_SECONDS:
        raise ReceiptError("receipt_not_yet_valid", "receipt is issued in the future")
    if current > claims.expires_at:
        raise ReceiptError("receipt_expired", "receipt has expired")
    return claims
