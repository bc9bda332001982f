"""The run worker (03 §12.2): ``python -P -m clauz3.runs.worker``, one process per run.

Configuration arrives as one JSON document on stdin (CRED-5). Three inherited descriptors are
named in it: ``progress_fd`` (write; JSON lines, RUN-5), ``gate_fd`` (read; one byte opens the
approval request, RUN-6) and ``lifetime_fd`` (read; EOF means the supervisor is gone, LIFE-2).
Stdout carries only the program's own output and can never change the phase.

Phases: checking → proving → submitting_approval → (awaiting_approval) → executing, then one
``{"event":"result",…}``. The worker writes the ledger only for the claim (IDM-5, RCP-2), then
applies the sandbox, scrubs its environment and interprets the very program that was proved.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clauz3.prover.entry import JsonValue
from clauz3.runs.errors import RunError
from clauz3.runs.proofnotes import failure_message, first_open, proof_text, refusal_summary
from clauz3.runs.workerconfig import ApprovalRecord, ConfigError, WorkerConfig, parse_config

if TYPE_CHECKING:  # imported where used (a worker starts fast); named here for the signatures
    from clauz3.approvals.receipts import ReceiptClaims
    from clauz3.interp.api import ExecutionResult
    from clauz3.language.ir import CheckedProgram
    from clauz3.language.layer import Layer
    from clauz3.prover.entry import ProofEntry
    from clauz3.prover.pipeline import ProofRequest
    from clauz3.runs.confine import Confinement
    from clauz3.runs.netguard import NetPlan
    from clauz3.runs.pinning import PinnedLayer

MAX_CONFIG_BYTES = 1024 * 1024
SCRUB_PREFIXES = ("CLAUZ3_APPROVAL",)
SCRUB_NAMES = ("CLAUZ3_BRIDGE_TICKET", "CLAUZ3_SESSION_LIFETIME_SOCKET")
UNREACHABLE_LIMIT = 10.0
POLL_WAIT = 30


DENIED = {
    "rejected": "the person rejected this program: do not run it",
    "rejected_contract": "the person rejected its contract: propose different guarantees",
    "request_more": "the person needs more information before deciding: answer, then submit again",
    "auto_rejected": "a remembered rule rejected this program",
}


class Stop(RunError):
    """Ends the pipeline with a result (reason per §12.1; ``code`` is the reason, ``stopped`` if none)."""

    def __init__(self, reason: str | None, message: str | None = None, **extra: Any) -> None:
        super().__init__(message or reason or "", reason or "stopped")
        self.reason = reason
        self.message = message
        self.extra = extra


def scrub_environment(env: dict[str, str] | os._Environ[str] | None = None) -> None:
    """CRED-5: remove approval credentials, the bridge ticket and the lifetime socket path."""
    target = os.environ if env is None else env
    for name in list(target):
        if name.startswith(SCRUB_PREFIXES) or name in SCRUB_NAMES:
            del target[name]


class Progress:
    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()

    def emit(self, doc: dict[str, Any]) -> None:
        data = (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        with self.lock:
            view = memoryview(data)
            while view:
                written = os.write(self.fd, view)
                view = view[written:]


def _watch_lifetime(fd: int) -> None:
    """LIFE-2: on EOF (or any byte) the supervisor is gone; kill the whole process group."""
    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    os.killpg(os.getpgrp(), signal.SIGKILL)


def _parse_iso(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
    except ValueError:
        try:
            return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None


class Worker:
    def __init__(self, config: WorkerConfig, progress: Progress) -> None:
        self.c = config
        self.progress = progress
        self.source = config.source
        self.request_id = config.request_id
        self.target = config.target
        self.project = Path(config.project)
        self.data_dir = Path(config.data_dir)
        self.scratch = Path(config.scratch)
        self.deadline_at = config.proof_deadline_at
        self.claimed = False
        self.proof_text = ""
        self.notes: list[str] = []  # where the program's Python differs from clauz3's (issue 18)
        self.approval: dict[str, JsonValue] | None = None
        self.sandbox_mode = "unavailable"
        self.sandbox_abi: int | None = None
        self.sandbox_detail = ""
        self._pinned: PinnedLayer | None = None  # the private copy of the layer that is proved and run (issue 11 §2)
        self.confinement: Confinement | None = None  # entered by main() while single-threaded
        self.network: NetPlan | None = None  # decided once the program's effects are known

    @property
    def pinned(self) -> PinnedLayer:
        if self._pinned is None:  # pragma: no cover - every phase after checking has pinned it
            raise RuntimeError("the layer is not pinned yet")
        return self._pinned

    # ---------------------------------------------------------------------------- phases

    def run(self) -> dict[str, Any]:
        try:
            program, layer, entry = self.check_and_prove()
            request = self.build_request(program, entry, layer)
            record = self.ask(request)
            claims, decision = self.verify_and_claim(record, request)
            return self.execute(program, layer, entry, claims, decision)
        except Stop as stop:
            return self.result(stop.reason, stop.message, **stop.extra)
        except Exception as exc:  # never a traceback to the agent; the reason says what phase broke
            reason = "runtime_error" if self.claimed else "config"
            return self.result(reason, f"internal error in the run worker ({type(exc).__name__}: {exc})"[:1000])

    def result(self, reason: str | None, message: str | None, **extra: Any) -> dict[str, Any]:
        doc: dict[str, Any] = {"event": "result", "reason": reason, "message": message,
                               "executed": self.claimed, "proof_text": self.proof_text,
                               "approval": self.approval, "notes": self.notes[:50]}
        doc.update(extra)
        return doc

    def check_and_prove(self) -> tuple[CheckedProgram, Layer, ProofEntry]:
        from clauz3.runs import sandbox

        if not self.c.verify_key:
            raise Stop("config", "refusing to run: no approval verifying key configured")
        probe = sandbox.probe(workspace=self.project, data_dir=self.data_dir)
        self.sandbox_mode, self.sandbox_abi, self.sandbox_detail = probe.mode, probe.abi, probe.detail
        self.progress.emit({"phase": "checking", "sandbox": probe.mode, "sandbox_abi": probe.abi,
                            "sandbox_detail": probe.detail})
        if self.c.require_sandbox and probe.mode != "landlock":
            raise Stop("sandbox_unavailable", f"a sandbox is required but unavailable: {probe.detail}")
        from clauz3.runs.interpreter import writable_interpreter

        refusal = writable_interpreter(self.project)
        if refusal is not None:  # issue 19 §4: a .pth written there would run before any sandbox
            raise Stop("config", refusal)
        path = self._program_path()
        self._pinned = self._pin()
        self.progress.emit({"phase": "proving", "obligation": None})
        return self._prove(path)

    def _pin(self) -> PinnedLayer:
        """Copy the layer's bytes into the scratch dir once; everything after loads only the copy."""
        from clauz3.runs.pinning import PinError, pinned_for

        try:
            return pinned_for(list(self.c.trusted_roots), list(self.c.import_roots), self.scratch)
        except PinError as exc:
            raise Stop("structural", str(exc)[:1000]) from None

    def _program_path(self) -> Path:
        """The caller's own file name (diagnostics name it; never read again: the prover gets the bytes
        that were hashed, issue 11 §2), else a scratch copy for a program without one."""
        data = self.source.encode("utf-8")
        name = self.c.source_name
        candidate = Path(name) if os.path.isabs(name) else None
        if candidate is not None and candidate.suffix == ".py":
            return candidate
        base = Path(name).name
        stem = base if base.endswith(".py") and base[:-3].isidentifier() else "program.py"
        folder = self.scratch / "source"
        folder.mkdir(mode=0o700, exist_ok=True)
        path = folder / stem
        path.write_bytes(data)
        return path

    def _prove(self, path: Path) -> tuple[CheckedProgram, Layer, ProofEntry]:
        from clauz3.prover.pipeline import ProofRequest, prove_file

        remaining = self.deadline_at - time.time()
        if remaining <= 0:
            raise Stop("proof_deadline", "proof deadline passed before proving started")
        req = ProofRequest(
            path=path, trusted_roots=[Path(p) for p in self.pinned.trusted_roots],
            import_roots=[Path(p) for p in self.pinned.import_roots], target=self.target,
            allow_imports=list(self.c.allow_imports),
            obligation_timeout=min(self.c.obligation_timeout_seconds, remaining),
            proof_timeout=remaining, use_cache=self.c.use_cache,
            source=self.source.encode("utf-8"),  # the bytes the request carries: the path is never re-read
            layer_directory=Path(self.pinned.directory),  # the cache keys the copy's roots relative to it
        )
        outcome = prove_file(req, project_root=self.project)
        entry = outcome.entry
        # Named by the program's own file name, as the agent wrote it (the scratch copy's folder means nothing to it).
        shown = Path(self.c.source_name or path.name).name
        scratch = path.is_relative_to(self.scratch)
        named = [line.replace(str(path), shown) if scratch else line for line in outcome.stderr]
        self.notes = [line.replace(f" {path}:", f" {shown}:", 1) for line in named if line.startswith("note: ")]
        status = entry.status
        if status == "refused" or (status == "error" and not outcome.deadline_expired):
            reason = "import_not_allowed" if "import-not-allowed" in entry.diagnostic_codes() else "structural"
            # Issue 22: the refusal names the file as the agent and the person know it, never the scratch copy.
            raise Stop(reason, "\n".join(named)[:1000] or "the program is outside the checked subset",
                       diagnostics=named[:50])
        if outcome.deadline_expired or status == "error":
            raise Stop("proof_deadline", "proof deadline passed", obligation=first_open(entry))
        self.proof_text = proof_text(entry)
        if entry.target_missing or outcome.verdict != "proved":
            raise Stop("proof_failed", failure_message(entry), obligation=first_open(entry),
                       diagnostics=outcome.stderr[:50], summary=refusal_summary(path, req, entry, outcome, self.source))
        if entry.program_sha256 != hashlib.sha256(self.source.encode("utf-8")).hexdigest():
            raise Stop("config", "the program file changed while it was being proved")
        if entry.has_required_gap():
            raise Stop("proof_failed", "a required guarantee of a library policy is not proved")
        program, layer = outcome.program, outcome.layer
        if program is None or layer is None:  # a cache hit: check again (cheap) and insist on the proved IR
            program, layer = self._recheck(path, req, entry)
        from clauz3.language.runnable import unrunnable_parameters

        refusals = [d.render() for d in unrunnable_parameters(program, self.source.encode("utf-8"))]
        if refusals:  # MOD-5: proved for every value, but a run has no arguments to give
            raise Stop("structural", "\n".join(refusals)[:1000], diagnostics=refusals[:50])
        return program, layer, entry

    def _recheck(self, path: Path, req: ProofRequest, entry: ProofEntry) -> tuple[CheckedProgram, Layer]:
        from clauz3.language import Refused, check_source
        from clauz3.language.ir import ir_sha256
        from clauz3.prover.pipeline import layer_for

        layer = layer_for(req.trusted_roots, req.import_roots)
        try:
            program = check_source(self.source.encode("utf-8"), str(path), layer, req.target,
                                   list(req.allow_imports))
        except Refused as exc:
            raise Stop("structural", "; ".join(d.render() for d in exc.diagnostics)[:1000]) from None
        if ir_sha256(program) != entry.ir_sha256:
            raise Stop("config", "the checked program differs from the cached proof; run again with --no-cache")
        return program, layer

    def build_request(self, program: CheckedProgram, entry: ProofEntry, layer: Layer) -> dict[str, Any]:
        from clauz3.runs import protections

        # Issue 19: what keeps this run off the network, and every protection it lacks (the card's words).
        self.network = protections.network_plan(program, layer, self.sandbox_abi,
                                                sandboxed=self.sandbox_mode == "landlock")
        gaps = protections.gaps(sandbox_mode=self.sandbox_mode, sandbox_detail=self.sandbox_detail,
                                network=self.network, confinement=self.confinement, project=self.project,
                                trusted_roots=self.c.trusted_roots)
        if gaps and self.c.require_sandbox:  # SBX-2 for every protection: nothing is sent
            raise Stop("sandbox_unavailable", f"a sandbox is required but incomplete: {gaps[0]}")
        coverage = [c.to_json() for c in entry.coverage]
        request: dict[str, Any] = {
            "schema_version": 1, "kind": "clauz3.run", "request_id": self.request_id,
            "program": self.source, "program_sha256": hashlib.sha256(self.source.encode("utf-8")).hexdigest(),
            "source_name": self.c.source_name[:256], "target": self.target,
            "trusted_roots": list(self.c.trusted_roots), "import_roots": list(self.c.import_roots),
            "guarantees": [g.expression for g in program.guarantees if g.kind == "guarantee"],
            "coverage": coverage,
            "proofs": [{"name": self.target, "conclusion": o.conclusion, "description": o.description}
                       for o in entry.obligations][:1024],
            "execution_timeout_seconds": self.c.execution_timeout_seconds,
            "layer_sha256": self.pinned.sha256,
            "sandbox": {"mode": self.sandbox_mode, "detail": self.sandbox_detail,
                        "extra_read": list(self.c.extra_read), "extra_write": list(self.c.extra_write),
                        "network": self.network.to_json(), "gaps": gaps},
        }
        if self.c.workspace_generation is not None:
            request["workspace_generation"] = self.c.workspace_generation
        if self.c.approval_timeout_seconds is not None:
            request["approval_timeout_seconds"] = self.c.approval_timeout_seconds
        if self.c.allow_imports:  # the authority proves the program with the same allowlist
            request["allow_imports"] = list(self.c.allow_imports)
        from clauz3.prover.facts import effect_facts

        facts = effect_facts(program)  # the card's summary: what the proved program will call (issue 12)
        if facts is not None:
            request["effects"] = facts
        return request

    # ----------------------------------------------------------------------------- approval

    def ask(self, request: dict[str, Any]) -> ApprovalRecord:
        from clauz3.runs.client import ApprovalClient, ServiceError

        self.progress.emit({"phase": "submitting_approval", "proof_text": self.proof_text})
        if os.read(self.c.gate_fd, 1) != b"\x01":
            os._exit(0)  # the supervisor closed the gate: the deadline passed, nothing is sent
        # The receipt check's imports load while the authority proves (the GIL is free during submit): off the
        # decision's path, and no warm prover has to hold cryptography and sqlite for every run. Before them,
        # z3's context goes: the proof and the card's facts are made, and nothing here proves again.
        threading.Thread(target=_while_the_authority_proves, daemon=True, name="imports").start()
        # The token leaves the configuration here: nothing the program runs later finds it in this worker.
        client = ApprovalClient(self.c.service_url, self.c.secrets.take_submission_token())
        try:
            record = ApprovalRecord.from_json(client.submit(request)[1])
        except ServiceError as exc:
            raise Stop("service_error", f"approval request failed: {exc}") from None
        self._note(record)
        if record.state == "pending":
            self.progress.emit({"phase": "awaiting_approval", "approval": self.approval,
                                "expires_at": record.expires_at})
        expires = _parse_iso(record.expires_at)
        give_up = (expires if expires is not None else time.time() + 300) + 10
        unreachable_since: float | None = None
        while record.state == "pending":
            now = time.time()
            if now > give_up:
                raise Stop("approval_expired", "the approval wait ended without a decision")
            try:
                record = ApprovalRecord.from_json(
                    client.get(self.request_id, wait=max(1, min(POLL_WAIT, int(give_up - now) + 1))))
                unreachable_since = None
            except ServiceError as exc:
                if not exc.unreachable:
                    raise Stop("service_error", f"approval status read failed: {exc}") from None
                unreachable_since = unreachable_since or now
                if now - unreachable_since >= UNREACHABLE_LIMIT:
                    raise Stop("service_error", "approval service unreachable for 10 s") from None
                time.sleep(0.5)
                continue
            self._note(record)
        del client
        return record

    def _note(self, record: ApprovalRecord) -> None:
        self.approval = record.note()

    def verify_and_claim(self, record: ApprovalRecord, request: dict[str, Any]) -> tuple[ReceiptClaims, str]:
        from clauz3.approvals.decisions import ALL_DECISIONS, UnknownDecision, check_decision, is_approving
        from clauz3.approvals.keys import KeyError_, VerifyKey
        from clauz3.approvals.receipts import ReceiptError, verify_receipt
        from clauz3.runs.ledger import Ledger

        state = record.state
        if state == "expired":
            raise Stop("approval_expired", "the approval request expired without a decision")
        if state == "cancelled":
            raise Stop("approval_cancelled", f"the approval request was cancelled ({record.cancel_reason})")
        if state not in ("approved", "denied"):
            raise Stop("service_error", f"the approval service answered an unknown state {str(state)[:40]!r}")
        try:
            decision = check_decision(record.decision, ALL_DECISIONS)
        except UnknownDecision as exc:
            raise Stop("service_error", f"the approval service answered {exc}") from None
        if (state == "approved") != is_approving(decision):
            raise Stop("service_error", f"the approval service answered state {state} with decision {decision}")
        if not is_approving(decision):
            # What the agent reads: which refusal it was (issue 12), then the person's own words.
            said = DENIED.get(decision, f"the request was {decision}")
            feedback = record.feedback
            raise Stop("denied", f"{said}; the person wrote: {feedback}" if feedback else said)
        try:
            key = VerifyKey.from_text(self.c.verify_key or "")
        except (KeyError_, ValueError):
            raise Stop("config", "the configured verifying key is invalid") from None
        try:
            claims = verify_receipt(
                record.receipt, key, request_id=self.request_id, program=self.source,
                guarantees=request["guarantees"], coverage=request["coverage"], target=self.target,
                project=str(self.project), workspace_generation=request.get("workspace_generation"),
                layer_sha256=self.pinned.sha256, data_dir=str(self.data_dir),
            )
            ledger = Ledger.for_project(self.data_dir, self.project)
            try:
                ledger.claim(self.request_id, claims, decision=decision)
            finally:
                ledger.close()
        except ReceiptError as exc:
            raise Stop(exc.code, str(exc)) from None
        self.claimed = True
        return claims, decision

    # ---------------------------------------------------------------------------- execution

    def execute(self, program: CheckedProgram, layer: Layer, entry: ProofEntry, claims: ReceiptClaims,
                decision: str) -> dict[str, Any]:
        from clauz3.interp.api import execute
        from clauz3.interp.monitor import is_end_state
        from clauz3.interp.values import render

        # Issue 10 family 8: if this worker is killed mid-run, the supervisor names what it cannot judge.
        finals = [g.bound_call for g in program.guarantees if is_end_state(g.spec)][:50]
        self.progress.emit({"phase": "executing", "receipt_nonce": claims.nonce, "approval": self.approval,
                            "end_state_guarantees": finals})
        self._open_file_journal()
        self._preload_smtp(program)
        if self.sandbox_mode == "landlock":
            self._apply_sandbox()
        elif self.network is not None and self.network.deny:  # pragma: no cover - plan() denies only sandboxed
            raise Stop("sandbox_failed", "the network guard was planned without a sandbox")
        scrub_environment()
        sys.stdout.flush()
        result = execute(program, layer.effects, step_budget=self.c.step_budget,
                         stdout=sys.stdout, ir_hash=entry.ir_sha256, write_report=False)
        sys.stdout.flush()
        effects = [f"{r.effect}({', '.join(f'{k}={render(v)}' for k, v in r.arguments.items())})"
                   for r in result.trace]
        report = None
        if result.outcome == "soundness_violation":
            report = {"kind": result.violation, "message": result.error,
                      "guarantee": result.guarantee.expression if result.guarantee else None,
                      "ir_sha256": entry.ir_sha256, "program_sha256": entry.program_sha256,
                      "trace": result.trace_json()[:1000]}
        reason = None if result.outcome == "completed" else result.outcome
        return self.result(reason, result.error, effects=effects[:1000], effects_count=len(result.trace),
                           report=report, receipt_nonce=claims.nonce, summary=_outcome_summary(program, result))

    def _open_file_journal(self) -> None:
        """05 FS-4: the journal is opened before the sandbox applies and written only through this fd."""
        from clauz3.stdlib.runtime import set_run_context
        from clauz3.storage.journals import journal_path, open_journal

        try:
            fd = open_journal(journal_path(self.data_dir, self.project, self.request_id))
        except (OSError, ValueError) as exc:
            raise Stop("runtime_error", f"the file-change journal could not be opened: {exc}") from None
        set_run_context(self.project, journal=fd,
                        protected_roots=[*self.c.trusted_roots, *self.pinned.trusted_roots])

    def _preload_smtp(self, program: CheckedProgram) -> None:
        """stdlib:smtp's settings and password live in the data dir, unreadable once the sandbox applies."""
        from clauz3.stdlib import smtpsend

        # The password reaches this process in its configuration, never its environment block (which
        # /proc/<pid>/environ shows to any process of the same user, whatever os.environ says later).
        os.environ.update(self.c.secrets.take_environment())
        wanted = any(".smtp.trusted." in "." + name for name in program.effects)  # tools[.org].smtp
        smtpsend.preload(self.data_dir, wanted=wanted)

    def _apply_sandbox(self) -> None:
        from clauz3.runs import confine, netguard, sandbox

        network = self.network
        try:
            if self.confinement is not None and self.confinement.active:
                confine.cover(self.data_dir, self.project)  # the control socket, keys, ledgers: out of sight
            confine.drop_capabilities()
            rules = sandbox.build_rules(
                abi=int(self.sandbox_abi or 1), workspace=self.project, scratch=self.scratch,
                trusted_roots=self.c.trusted_roots, import_roots=self.c.import_roots,
                extra_read=[*self.c.extra_read, self.pinned.directory], extra_write=self.c.extra_write,
            )
            sandbox.apply(rules, int(self.sandbox_abi or 1), deny_tcp=network is not None and network.deny)
            if network is not None and network.deny:
                netguard.deny_sockets()
        except (sandbox.SandboxError, netguard.NetGuardError, OSError) as exc:
            raise Stop("sandbox_failed", f"the sandbox could not be applied: {exc}") from None


def _outcome_summary(program: CheckedProgram, result: ExecutionResult) -> dict[str, Any] | None:
    """Issue 12: "Sent 1 mock email to bob@example.com", from the run's own call trace."""
    from clauz3.approvals.summary import MAX_OUTCOME_CALLS, Call, outcome_record
    from clauz3.interp.values import to_json
    from clauz3.language.context import domain_of

    calls = []
    for r in result.trace[:MAX_OUTCOME_CALLS]:
        eff = program.effects.get(r.effect)
        module = r.effect.rsplit(".", 1)[0]
        args = {k: to_json(v) for k, v in r.arguments.items()}
        calls.append(Call(r.short, domain_of(module) or module, bool(eff and eff.mock), args, tuple(args)))
    return outcome_record(calls, len(result.trace), ended_early=result.ended_early, end_state=result.end_state)


def _while_the_authority_proves() -> None:
    """This worker then waits on the person: without z3's context (06 tree_rss), with the receipt check loaded."""
    from clauz3.base.memory import give_back
    from clauz3.prover.z3context import release

    release()
    give_back()
    _import_decision_modules()


def _import_decision_modules() -> None:
    """What :meth:`Worker.verify_and_claim` imports (a failure here is met again, and reported, there)."""
    try:
        from clauz3.approvals import decisions, keys, receipts  # noqa: F401
        from clauz3.runs import ledger  # noqa: F401
    except Exception:
        pass


def main() -> int:
    raw = sys.stdin.buffer.read(MAX_CONFIG_BYTES + 1)
    if len(raw) > MAX_CONFIG_BYTES:
        print("error: worker configuration exceeds 1 MiB", file=sys.stderr)
        return 2
    try:
        doc = json.loads(raw.decode("utf-8"))
        config = parse_config(doc)
    except (UnicodeDecodeError, ValueError, ConfigError):
        print("error: invalid worker configuration", file=sys.stderr)
        return 2
    if isinstance(doc, dict):
        doc.clear()  # the credentials now live in config.secrets only, each taken once where it is used
    del raw
    fds = [config.progress_fd, config.gate_fd, config.lifetime_fd]
    for fd in fds:  # LIFE-3: nothing the program or a trusted effect starts may inherit them
        os.set_inheritable(fd, False)
    from clauz3.runs.protections import enter_confinement

    # Before the first thread: a user namespace needs one thread.
    confinement = enter_confinement(Path(config.project), Path(config.data_dir), config.trusted_roots)
    threading.Thread(target=_watch_lifetime, args=(fds[2],), daemon=True, name="lifetime").start()
    progress = Progress(fds[0])
    worker = Worker(config, progress)
    worker.confinement = confinement
    result = worker.run()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass
    progress.emit(result)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
