"""Approval requests: strict request JSON (03 §5.1), records (§5.2) and their states (§5.3)."""

from __future__ import annotations

import hashlib
import keyword
import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from clauz3.approvals.canonical import canonical_json, consent_sha256, program_sha256
from clauz3.approvals.errors import ApprovalError

MAX_PROGRAM_BYTES = 262_144
REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
COVERAGE_STATUSES = ("covered", "recommended_gap", "silent_gap", "required_gap")
SANDBOX_MODES = ("landlock", "unavailable")

PENDING, APPROVED, DENIED, CANCELLED, EXPIRED = "pending", "approved", "denied", "cancelled", "expired"
FINAL_STATES = frozenset({APPROVED, DENIED, CANCELLED, EXPIRED})
CANCEL_REASONS = ("workspace_switched", "stopped", "bridge_gone", "submitter_gone", "submitter_cancelled",
                  "service_stopping")

_REQUIRED = ("schema_version", "kind", "request_id", "program", "program_sha256", "source_name",
             "trusted_roots", "import_roots", "guarantees", "coverage", "proofs",
             "execution_timeout_seconds", "sandbox")
_OPTIONAL = ("workspace_generation", "target", "approval_timeout_seconds", "effects", "layer_sha256",
             "allow_imports")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def new_request_id() -> str:
    return "clr_" + secrets.token_hex(16)


@dataclass(frozen=True)
class Coverage:
    domain: str
    status: str
    missing_required: tuple[str, ...]
    missing_recommended: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"domain": self.domain, "status": self.status, "missing_required": list(self.missing_required),
                "missing_recommended": list(self.missing_recommended)}


@dataclass(frozen=True)
class Proof:
    name: str
    conclusion: str
    description: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "conclusion": self.conclusion, "description": self.description}


NETWORK_MODES = ("landlock", "seccomp", "declared", "unavailable")


@dataclass(frozen=True)
class Network:
    """Issue 19 §3: what keeps the run off the network (or which library declared it needs it)."""

    mode: str
    text: str
    declared_by: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "text": self.text, "declared_by": list(self.declared_by)}


@dataclass(frozen=True)
class Sandbox:
    mode: str
    detail: str
    extra_read: tuple[str, ...]
    extra_write: tuple[str, ...]
    network: Network | None = None
    # The protections the run lacks, in words; any gap (or an unsandboxed run) turns automatic approvals off.
    gaps: tuple[str, ...] = ()

    @property
    def automatic_allowed(self) -> bool:
        """No protection the worker names is missing: only then may a policy or remembered approval
        decide (issue 19). A request without the network block (an older submitter) names none."""
        return not self.gaps

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"mode": self.mode, "detail": self.detail, "extra_read": list(self.extra_read),
                               "extra_write": list(self.extra_write)}
        if self.network is not None:
            doc["network"] = self.network.to_json()
            doc["gaps"] = list(self.gaps)
        return doc


@dataclass(frozen=True)
class ApprovalRequest:
    """A validated request (§5.1). Structural checks only; hash/proof/coverage checks are :func:`check_claims`."""

    request_id: str
    program: str
    program_sha256: str
    source_name: str
    target: str
    trusted_roots: tuple[str, ...]
    import_roots: tuple[str, ...]
    guarantees: tuple[str, ...]
    coverage: tuple[Coverage, ...]
    proofs: tuple[Proof, ...]
    execution_timeout_seconds: int
    sandbox: Sandbox
    workspace_generation: str | None = None
    approval_timeout_seconds: int | None = None
    effects: dict[str, Any] | None = None  # the prover's effect facts, for the card's summary (issue 12)
    layer_sha256: str | None = None  # the content hash of the layer copy the worker loaded (issue 11 §2)
    allow_imports: tuple[str, ...] = ()  # `clauz3 run --allow-import`: the authority proves with them too

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schema_version": 1, "kind": "clauz3.run", "request_id": self.request_id, "program": self.program,
            "program_sha256": self.program_sha256, "source_name": self.source_name, "target": self.target,
            "trusted_roots": list(self.trusted_roots), "import_roots": list(self.import_roots),
            "guarantees": list(self.guarantees), "coverage": [c.to_json() for c in self.coverage],
            "proofs": [p.to_json() for p in self.proofs],
            "execution_timeout_seconds": self.execution_timeout_seconds, "sandbox": self.sandbox.to_json(),
        }
        if self.workspace_generation is not None:
            out["workspace_generation"] = self.workspace_generation
        if self.approval_timeout_seconds is not None:
            out["approval_timeout_seconds"] = self.approval_timeout_seconds
        if self.effects is not None:
            out["effects"] = self.effects
        if self.layer_sha256 is not None:
            out["layer_sha256"] = self.layer_sha256
        if self.allow_imports:
            out["allow_imports"] = list(self.allow_imports)
        return out

    def payload_sha256(self) -> str:
        """Idempotency key (REQ-4): canonical JSON of the submitted content with defaults filled."""
        return hashlib.sha256(canonical_json(self.to_json())).hexdigest()

    def consent_sha256(self) -> str:
        return consent_sha256([c.to_json() for c in self.coverage], list(self.guarantees), self.target)


def _bad(name: str, why: str) -> ApprovalError:
    return ApprovalError("invalid_request", f"field {name}: {why}")


def _int(obj: dict[str, Any], name: str, lo: int, hi: int) -> int:
    value = obj[name]
    if type(value) is not int or not lo <= value <= hi:
        raise _bad(name, f"must be an integer from {lo} to {hi}")
    return value


def _str(value: Any, name: str, limit: int) -> str:
    if type(value) is not str or len(value) > limit:
        raise _bad(name, f"must be a string of at most {limit} characters")
    return value


def _str_list(value: Any, name: str, count: int, limit: int) -> tuple[str, ...]:
    if type(value) is not list or len(value) > count:
        raise _bad(name, f"must be a list of at most {count} strings")
    return tuple(_str(item, f"{name}[{i}]", limit) for i, item in enumerate(value))


def _exact_keys(value: Any, name: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if type(value) is not dict or set(value) != set(keys):
        raise _bad(name, f"must be an object with exactly the keys {', '.join(keys)}")
    return value


def _roots(value: Any, name: str) -> tuple[str, ...]:
    roots = _str_list(value, name, 64, 4096)
    for i, root in enumerate(roots):
        if not os.path.isabs(root) or os.path.normpath(root) != root or "\0" in root:
            raise _bad(f"{name}[{i}]", "must be an absolute normalised path")
    return roots


def parse_request(obj: Any) -> ApprovalRequest:
    """Strict §5.1 validation; the error names the first bad field (``invalid_request``)."""
    if type(obj) is not dict:
        raise ApprovalError("invalid_request", "the request body must be a JSON object")
    for key in obj:
        if key not in _REQUIRED and key not in _OPTIONAL:
            raise _bad(str(key)[:100], "unknown field")
    for key in _REQUIRED:
        if key not in obj:
            raise _bad(key, "is required")
    if type(obj["schema_version"]) is not int or obj["schema_version"] != 1:
        raise _bad("schema_version", "must be 1")
    if obj["kind"] != "clauz3.run":
        raise _bad("kind", 'must be "clauz3.run"')
    request_id = obj["request_id"]
    if type(request_id) is not str or not REQUEST_ID_RE.match(request_id):
        raise _bad("request_id", "must match ^[A-Za-z0-9_-]{8,64}$")
    generation = obj.get("workspace_generation")
    if generation is not None:
        generation = _str(generation, "workspace_generation", 64)
    program = obj["program"]
    if type(program) is not str:
        raise _bad("program", "must be a string")
    try:
        size = len(program.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise _bad("program", "must be valid UTF-8 text") from exc
    if size > MAX_PROGRAM_BYTES:
        raise _bad("program", f"must be at most {MAX_PROGRAM_BYTES} bytes of UTF-8")
    digest = obj["program_sha256"]
    if type(digest) is not str or not _HEX64.match(digest):
        raise _bad("program_sha256", "must be 64 lowercase hex digits")
    source_name = _str(obj["source_name"], "source_name", 256)
    target = obj.get("target", "main")
    if type(target) is not str or len(target) > 128 or not target.isidentifier() or keyword.iskeyword(target):
        raise _bad("target", "must be a Python identifier of at most 128 characters")
    trusted_roots = _roots(obj["trusted_roots"], "trusted_roots")
    import_roots = _roots(obj["import_roots"], "import_roots")
    guarantees = _str_list(obj["guarantees"], "guarantees", 256, 4096)
    coverage_raw = obj["coverage"]
    if type(coverage_raw) is not list or len(coverage_raw) > 256:
        raise _bad("coverage", "must be a list of at most 256 entries")
    coverage: list[Coverage] = []
    for i, item in enumerate(coverage_raw):
        name = f"coverage[{i}]"
        entry = _exact_keys(item, name, ("domain", "status", "missing_required", "missing_recommended"))
        status = entry["status"]
        if status not in COVERAGE_STATUSES:
            raise _bad(f"{name}.status", "must be one of " + ", ".join(COVERAGE_STATUSES))
        coverage.append(Coverage(
            _str(entry["domain"], f"{name}.domain", 256), status,
            _str_list(entry["missing_required"], f"{name}.missing_required", 256, 4096),
            _str_list(entry["missing_recommended"], f"{name}.missing_recommended", 256, 4096),
        ))
    proofs_raw = obj["proofs"]
    if type(proofs_raw) is not list or len(proofs_raw) > 1024:
        raise _bad("proofs", "must be a list of at most 1024 entries")
    proofs: list[Proof] = []
    for i, item in enumerate(proofs_raw):
        name = f"proofs[{i}]"
        entry = _exact_keys(item, name, ("name", "conclusion", "description"))
        proofs.append(Proof(_str(entry["name"], f"{name}.name", 4096),
                            _str(entry["conclusion"], f"{name}.conclusion", 64),
                            _str(entry["description"], f"{name}.description", 8192)))
    execution_timeout = _int(obj, "execution_timeout_seconds", 1, 300)
    approval_timeout = _int(obj, "approval_timeout_seconds", 1, 86400) if "approval_timeout_seconds" in obj \
        and obj["approval_timeout_seconds"] is not None else None
    base_keys = ("mode", "detail", "extra_read", "extra_write")
    raw_sb = obj["sandbox"]
    with_network = type(raw_sb) is dict and ("network" in raw_sb or "gaps" in raw_sb)
    sb = _exact_keys(raw_sb, "sandbox", (*base_keys, "network", "gaps") if with_network else base_keys)
    if sb["mode"] not in SANDBOX_MODES:
        raise _bad("sandbox.mode", 'must be "landlock" or "unavailable"')
    network = None
    gaps: tuple[str, ...] = ()
    if with_network:
        net = _exact_keys(sb["network"], "sandbox.network", ("mode", "text", "declared_by"))
        if net["mode"] not in NETWORK_MODES:
            raise _bad("sandbox.network.mode", f"must be one of {', '.join(NETWORK_MODES)}")
        network = Network(net["mode"], _str(net["text"], "sandbox.network.text", 1024),
                          _str_list(net["declared_by"], "sandbox.network.declared_by", 64, 512))
        gaps = _str_list(sb["gaps"], "sandbox.gaps", 16, 1024)
    sandbox = Sandbox(sb["mode"], _str(sb["detail"], "sandbox.detail", 4096),
                      _str_list(sb["extra_read"], "sandbox.extra_read", 256, 4096),
                      _str_list(sb["extra_write"], "sandbox.extra_write", 256, 4096), network, gaps)
    effects = None
    if obj.get("effects") is not None:
        from clauz3.approvals.summary import FactsError, check_facts

        try:
            effects = check_facts(obj["effects"])
        except FactsError as exc:
            raise _bad("effects", str(exc)) from None
    layer = obj.get("layer_sha256")
    if layer is not None and (type(layer) is not str or not _HEX64.match(layer)):
        raise _bad("layer_sha256", "must be 64 lowercase hex digits")
    allow_imports = _str_list(obj.get("allow_imports") or [], "allow_imports", 64, 200)
    if not all(_DOTTED.match(m) for m in allow_imports):
        raise _bad("allow_imports", "must be dotted module names")
    return ApprovalRequest(
        request_id=request_id, program=program, program_sha256=digest, source_name=source_name, target=target,
        trusted_roots=trusted_roots, import_roots=import_roots, guarantees=guarantees, coverage=tuple(coverage),
        proofs=tuple(proofs), execution_timeout_seconds=execution_timeout, sandbox=sandbox,
        workspace_generation=generation, approval_timeout_seconds=approval_timeout, effects=effects,
        layer_sha256=layer, allow_imports=allow_imports,
    )


def check_claims(request: ApprovalRequest) -> None:
    """REQ-1's hash check, then every proof ``proved`` and no ``required_gap``."""
    if program_sha256(request.program) != request.program_sha256:
        raise ApprovalError("program_sha256_mismatch", "program_sha256 does not match the hash of program")
    for i, proof in enumerate(request.proofs):
        if proof.conclusion != "proved":
            raise ApprovalError("unproved_request", f"proofs[{i}] ({proof.name[:80]}) is not proved")
    for entry in request.coverage:
        if entry.status == "required_gap":
            raise ApprovalError("required_coverage_missing",
                                f"required guarantee missing for domain {entry.domain[:80]}")


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass
class Record:
    """One request's life in the authority; :func:`record_view` is the only way it leaves."""

    request: ApprovalRequest
    conversation_id: str | None
    workspace_generation: str
    project: str
    created_at: float
    expires_at: float
    payload_sha256: str
    state: str = PENDING
    decided_at: float | None = None
    decision: str | None = None
    decided_by: str | None = None
    rule: dict[str, Any] | None = None
    feedback: str | None = None
    cancel_reason: str | None = None
    approvals_paused: bool = False
    automatic: dict[str, Any] = field(default_factory=lambda: {"undecidable": [], "suppressed": None})
    profile: dict[str, Any] = field(default_factory=lambda: {
        "eligible": False, "signature": None, "reason": "Profiles are off.", "history_id": None})
    presentation: dict[str, Any] = field(default_factory=dict)
    receipt: str | None = None  # the secret string: only the submitter view carries it
    receipt_nonce: str | None = None
    receipt_expires_at: int | None = None
    basis: dict[str, Any] | None = None
    submitter_token_id: str | None = None
    layer_sha256: str | None = None  # content of the layer the card describes (issue 11 §2)
    provenance_warnings: int = 0  # issue 20: values from read data in protected places (no automatic approval)

    @property
    def final(self) -> bool:
        return self.state in FINAL_STATES


def record_view(record: Record, *, submitter: bool) -> dict[str, Any]:
    """§5.2: the submitted fields plus the record's; ``receipt`` only for the submitter when approved."""
    out = record.request.to_json()
    out.update({
        "state": record.state,
        "created_at": iso(record.created_at),
        "expires_at": iso(record.expires_at),
        "decided_at": iso(record.decided_at),
        "decision": record.decision,
        "decided_by": record.decided_by,
        "rule": record.rule,
        "feedback": record.feedback,
        "cancel_reason": record.cancel_reason,
        "conversation_id": record.conversation_id,
        "workspace_generation": record.workspace_generation,
        "approvals_paused": record.approvals_paused,
        "automatic": record.automatic,
        "profile": record.profile,
        "presentation": record.presentation,
        "receipt_issued": record.receipt_nonce is not None,
        "receipt_nonce": record.receipt_nonce,
    })
    if submitter and record.state == APPROVED and record.receipt is not None:
        out["receipt"] = record.receipt
    return out
