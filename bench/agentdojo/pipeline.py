"""One program through clauz3's real path, in this process: prove, approve, verify, execute.

The approval step is the real ``ApprovalAuthority`` in-process (no HTTP): the benchmark's person
approves every card whose guarantees all proved (``approved_once``), the authority signs a
single-use Ed25519 receipt, the receipt is verified against the program and its guarantees and
claimed in a real run ledger, and only then does clauz3's interpreter run the proved IR under the
runtime monitor. Nothing here decides a verdict: the prover's entry is used as it is.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
from clauz3.approvals.decisions import HumanDecision
from clauz3.approvals.receipts import verify_receipt
from clauz3.approvals.requests import parse_request
from clauz3.base.provenance import TranscriptIndex
from clauz3.interp.api import execute
from clauz3.prover.facts import effect_facts
from clauz3.prover.pipeline import ProofRequest, prove_file
from clauz3.runs.ledger import Ledger, payload_sha256

# z3's limit is wall-clock time: on a loaded machine a proof that takes seconds alone times out ("unknown", never a
# pass), so utility falls with load: the default, 120 s, lets the longest honest proof finish beside a full test
# run (30 s lost 28 of 97). `just agentdojo --obligation-timeout S` sets it for the suite children.
OBLIGATION_TIMEOUT = float(os.environ.get("CLAUZ3_AGENTDOJO_OBLIGATION_TIMEOUT", "120"))


@dataclass
class Outcome:
    """How one program ended: ``stage`` is refused | not_proved | denied | executed."""

    stage: str
    proved: bool = False
    executed: bool = False
    run_outcome: str | None = None
    output: str = ""
    reason: str = ""
    failing: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # the card's provenance warnings (issue 20)


class Runner:
    """Proves and runs programs against one layer (01 TL-6: one layer per process)."""

    def __init__(self, project: Path, trusted_root: Path, data_dir: Path) -> None:
        self.project = project.resolve()
        self.trusted = [trusted_root.resolve()]
        self.imports = [self.project]
        self.data_dir = data_dir
        # The conversation's transcript as the host keeps it (issue 20): the prompt as the person's words,
        # the read step's tool results as what the agent read. None: no host (no provenance block).
        self.index: TranscriptIndex | None = None
        self.authority = ApprovalAuthority(AuthorityConfig(data_dir=data_dir, project=str(self.project),
                                                           provenance=lambda _cid: self.index))
        self.token = self.authority.register_conversation(None, [str(p) for p in self.trusted],
                                                          [str(p) for p in self.imports])
        self.principal = self.authority.submitter_for(self.token)
        self.loop = asyncio.new_event_loop()
        self.ledger = Ledger.for_project(data_dir, self.project)
        self.ids = itertools.count(1)
        # z3's time per obligation is 30 s, not the CLI's 10 s: the hand-written programs parse AgentDojo's text and
        # the benchmark runs on a loaded 2-core machine; a timeout is "unknown" (not proved), never a pass.
        # A proof depends on the program's text and the layer only (no cache on disk, 01 TL-6): an honest
        # program met on every pair's environment is proved once per process, then run on each.
        self.proofs: dict[tuple[str, str], tuple[Any, dict[str, Any], list[str]]] = {}

    def close(self) -> None:
        self.ledger.close()
        self.loop.close()

    def prove(self, source: str, name: str) -> tuple[Any, dict[str, Any], list[str]]:
        key = (source, name)
        if key not in self.proofs:
            self.proofs[key] = self._prove(source, name)
        return self.proofs[key]

    def _prove(self, source: str, name: str) -> tuple[Any, dict[str, Any], list[str]]:
        req = ProofRequest(path=self.project / "programs" / name, trusted_roots=self.trusted,
                           import_roots=self.imports, use_cache=False, proof_timeout=max(300.0, 10 * OBLIGATION_TIMEOUT),
                           obligation_timeout=OBLIGATION_TIMEOUT,
                           source=source.encode("utf-8"))
        out = prove_file(req, project_root=self.project)
        return out, out.entry.to_json(), out.stderr

    def run(self, source: str, name: str) -> Outcome:
        out, entry, stderr = self.prove(source, name)
        if entry.get("status") in ("refused", "error"):
            return Outcome("refused", reason="; ".join(stderr)[:600] or str(entry.get("status")))
        failing = [f"{o.get('description') or o.get('subject')}: {o.get('conclusion')}"
                   + (f" ({o.get('reason')})" if o.get("reason") else "")
                   for o in entry.get("obligations", []) if o.get("conclusion") != "proved"]
        if out.verdict != "proved" or failing:
            return Outcome("not_proved", failing=failing, reason=failing[0] if failing else "not proved")
        if any(c.get("status") == "required_gap" for c in entry.get("coverage", [])):
            return Outcome("not_proved", reason="a required guarantee of a library policy is not proved")
        program, layer = out.program, out.layer
        request = self._request(source, name, program, entry)
        record = self.loop.run_until_complete(self._approve(request))
        warnings = [str(w) for w in (record.presentation.get("provenance") or {}).get("warnings") or []]
        if record.state != "approved" or not record.receipt:
            return Outcome("denied", proved=True, reason=f"approval ended {record.state}", warnings=warnings)
        claims = verify_receipt(record.receipt, self.authority.verify_key, request_id=request["request_id"],
                                program=source, guarantees=request["guarantees"], coverage=request["coverage"],
                                target="main", project=str(self.project),
                                workspace_generation=request.get("workspace_generation"))
        rid = request["request_id"]
        begun = self.ledger.begin(rid, project=str(self.project), conversation_id=None,
                                  payload_sha=payload_sha256(source, "main", request["trusted_roots"],
                                                             request["import_roots"], 60),
                                  source_sha=request["program_sha256"])
        if begun.lock is None:
            return Outcome("denied", proved=True, reason=f"run ledger answered {begun.kind}")
        try:
            self.ledger.claim(rid, claims, decision=record.decision)  # the receipt is single-use
            stdout = io.StringIO()
            result = execute(program, layer.effects, stdout=stdout, ir_hash=entry.get("ir_sha256"),
                             write_report=False)
            self.ledger.finish({"request_id": rid, "phase": "executed" if result.ok else "failed",
                                "reason": None if result.ok else result.outcome}, stdout=stdout.getvalue())
        finally:
            begun.lock.release()
        return Outcome("executed", proved=True, executed=True, run_outcome=result.outcome,
                       output=stdout.getvalue(), reason=result.error or "", warnings=warnings)

    def _request(self, source: str, name: str, program: Any, entry: dict[str, Any]) -> dict[str, Any]:
        facts = effect_facts(program)  # what the proved program calls, as a worker sends it (issue 12)
        keys = ("domain", "status", "missing_required", "missing_recommended")
        coverage = [{k: c.get(k, [] if k.startswith("missing") else "") for k in keys}
                    for c in entry.get("coverage", [])]
        return {
            "schema_version": 1, "kind": "clauz3.run", "request_id": f"req_agentdojo_{next(self.ids):06d}",
            "program": source, "program_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
            "source_name": name, "target": "main",
            "trusted_roots": [str(p) for p in self.trusted], "import_roots": [str(p) for p in self.imports],
            "guarantees": [g.expression for g in program.guarantees if g.kind == "guarantee"],
            "coverage": coverage,
            "proofs": [{"name": "main", "conclusion": o["conclusion"], "description": o["description"]}
                       for o in entry.get("obligations", [])][:1024],
            "execution_timeout_seconds": 60,
            "sandbox": {"mode": "unavailable", "detail": "in-process AgentDojo benchmark", "extra_read": [],
                        "extra_write": []},
            "workspace_generation": self.authority.generation,
            **({"effects": facts} if facts is not None else {}),
        }

    async def _approve(self, request: dict[str, Any]) -> Any:
        assert self.principal is not None
        _created, record = await self.authority.submit(self.principal, parse_request(request))
        if record.state == "pending":
            record = await self.authority.decide(request["request_id"], HumanDecision("approved_once"))
        return record
