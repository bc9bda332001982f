"""The approval authority core (03 §4–§9): records, decisions, automatic decisions, receipts.

Protocol-free and typed: the HTTP edge (:mod:`clauz3.approvals.app`) parses each body once into
an :class:`ApprovalRequest` or a :class:`HumanDecision`, and it and the in-process session host call
the same async methods with those, so a decision arriving by any path passes the same validation
(API-4). Failures are :class:`ApprovalError` codes; HTTP statuses live only at the edge.
Everything runs on one event loop; state changes happen between awaits, which makes "the first
valid decision wins" atomic without locks (DEC-3).
"""

from __future__ import annotations

import asyncio
import inspect
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.approvals.automatic import profile_rule
from clauz3.approvals.automatic_eval import evaluate_automatic
from clauz3.approvals.decisions import (
    APPROVED_ONCE,
    APPROVED_REMEMBER,
    REQUEST_MORE,
    HumanDecision,
    check_decision,
    is_approving,
)
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.keys import SigningKey
from clauz3.approvals.layers import AuthorisedLayer, layer_sha256
from clauz3.approvals.layerscan import bind_guarantee, program_imports, scan_layer
from clauz3.approvals.policies import (
    DEFAULT_POLICY_TIMEOUT,
    Entailment,
    Policy,
    never_entails,
)
from clauz3.approvals.presentation import build_presentation, revealed
from clauz3.approvals.principals import APPROVER_IN_PROCESS, Conversation, Principal, submitter_key
from clauz3.approvals.profiles import ProfileStore, ProfilesUnavailable
from clauz3.approvals.provenance import (
    NOT_OPEN,
    ProvenanceLookup,
    flow_warnings,
    provenance_block,
    warning_count,
)
from clauz3.approvals.receipts import LIFETIME_SECONDS, data_sha256, issue_receipt
from clauz3.approvals.requests import (
    APPROVED,
    CANCELLED,
    DENIED,
    EXPIRED,
    PENDING,
    ApprovalRequest,
    Record,
    check_claims,
    record_view,
)
from clauz3.approvals.signature import compute_signature
from clauz3.approvals.tokens import generate_token, secrets_equal
from clauz3.approvals.verdicts import DEFAULT_VERIFY_TIMEOUT, Verifier, show_proof, start_verify
from clauz3.storage.paths import canonical_project, profiles_path, project_sha256

MAX_RECORDS = 2000
MAX_PENDING_PER_TOKEN = 16
REMINT_BELOW_SECONDS = 60

ChangeCallback = Callable[[dict[str, Any]], Awaitable[None] | None]


@dataclass
class AuthorityConfig:
    data_dir: Path
    project: str
    signing_key: SigningKey = field(default_factory=SigningKey.generate)
    approval_wait_seconds: float = 300.0
    require_sandbox: bool = False
    policy: Policy | None = None
    policy_timeout: float = DEFAULT_POLICY_TIMEOUT
    entails: Entailment = never_entails
    profiles: bool = False
    submitter_grace_seconds: float = 15.0
    workspace_generation: str | None = None
    # Issue 11 §5: the authority's own proof of each submitted program (None: cards say "claimed").
    verify: Verifier | None = None
    verify_timeout: float = DEFAULT_VERIFY_TIMEOUT
    # Issue 20: the host's transcript index of a conversation, for the card's provenance block
    # (None: no host, so the card shows no provenance and nothing about it changes a decision).
    provenance: ProvenanceLookup | None = None


@dataclass
class _Live:
    """Per-record runtime state that never leaves the authority."""

    event: asyncio.Event = field(default_factory=asyncio.Event)
    waiters: int = 0
    last_seen: float = field(default_factory=time.monotonic)
    timers: list[asyncio.TimerHandle] = field(default_factory=list)


class ApprovalAuthority:
    def __init__(self, config: AuthorityConfig) -> None:
        self.config = config
        self.project = canonical_project(config.project)
        self.generation = config.workspace_generation or secrets.token_hex(8)
        self._key = config.signing_key
        self.verify_key = self._key.verify_key
        self._conversations: dict[str, Conversation] = {}
        self._records: OrderedDict[str, Record] = OrderedDict()
        self._live: dict[str, _Live] = {}
        self._inflight: dict[str, asyncio.Future[None]] = {}
        self._listeners: list[ChangeCallback] = []
        self._stopping = False
        self.profiles: ProfileStore | None = None
        self.profiles_error: str | None = None
        if config.profiles:
            try:
                self.profiles = ProfileStore(profiles_path(config.data_dir))
            except ProfilesUnavailable as exc:
                self.profiles_error = str(exc)
                print(f"warning: {exc}", file=sys.stderr)

    # ------------------------------------------------------------------ in-process host surface

    def register_conversation(self, conversation_id: str | None, trusted_roots: Iterable[str],
                              import_roots: Iterable[str], *, token: str | None = None) -> str:
        """Authorise a conversation's layer (frozen now) and return its submission token.

        ``conversation_id=None`` is the one submitter of a standalone service; ``token`` lets the
        operator choose it (CRED-2), else an existing token is kept or a fresh one minted.
        """
        key = submitter_key(conversation_id)
        old = self._conversations.get(key)
        token = token or (old.token if old is not None else generate_token())
        layer = AuthorisedLayer.resolve(self.project, trusted_roots, import_roots)
        self._conversations[key] = Conversation(key, conversation_id, token, layer,
                                                old.paused if old is not None else False)
        warm = getattr(self.config.verify, "warm", None)
        if callable(warm):  # start the layer's prover child now, so the first card is not a cold start
            try:
                warm(layer.trusted_roots, layer.import_roots, layer.project)
            except OSError as exc:
                print(f"warning: cannot start the authority's prover: {exc}", file=sys.stderr)
        return token

    def end_conversation(self, conversation_id: str | None, reason: str = "bridge_gone") -> None:
        """Cancel its pending requests with ``reason`` and revoke its token."""
        key = submitter_key(conversation_id)
        self.cancel_pending(conversation_id, reason)
        self._conversations.pop(key, None)

    def cancel_pending(self, conversation_id: str | None, reason: str) -> None:
        """``bridge_gone`` or ``stopped`` for one conversation's pending requests (REQ-3)."""
        key = submitter_key(conversation_id)
        for record in list(self._records.values()):
            if record.state == PENDING and record.submitter_token_id == key:
                self._cancel(record, reason)

    def set_paused(self, conversation_id: str | None, paused: bool) -> None:
        """AUTO-4: while paused, automatic approvals are suppressed; denials still apply."""
        conv = self._conversations.get(submitter_key(conversation_id))
        if conv is not None:
            conv.paused = paused

    def switch_workspace(self, project: str, generation: str | None = None) -> str:
        """REQ-3: new generation; pending cancelled; tokens revoked; layers cleared; old records dropped."""
        for record in list(self._records.values()):
            if record.state == PENDING:
                self._cancel(record, "workspace_switched")
        self._conversations.clear()
        for rid in list(self._records):
            self._drop(rid)
        self.project = canonical_project(project)
        self.generation = generation or secrets.token_hex(8)
        return self.generation

    def on_change(self, callback: ChangeCallback) -> Callable[[], None]:
        """Call ``callback(approver_view)`` on every visible record change; returns an unsubscribe."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def begin_stop(self) -> None:
        """Service stop: refuse new submissions; pending requests become ``cancelled``
        (``service_stopping``), which wakes every long-polling submitter at once."""
        self._stopping = True
        for record in list(self._records.values()):
            if record.state == PENDING:
                self._cancel(record, "service_stopping")

    async def close(self) -> None:
        self.begin_stop()
        closer = getattr(self.config.verify, "close", None)
        if callable(closer):
            await asyncio.to_thread(closer)
        if self.profiles is not None:
            self.profiles.close()
            self.profiles = None

    # --------------------------------------------------------------------------- credentials

    def submitter_for(self, token: str) -> Principal | None:
        found: Conversation | None = None
        for conv in self._conversations.values():  # compare against all: timing reveals nothing
            if secrets_equal(token, conv.token):
                found = conv
        if found is None:
            return None
        return Principal("submitter", "bearer", found.conversation_id, found.key)

    def submission_tokens(self) -> list[str]:
        return [c.token for c in self._conversations.values()]

    # --------------------------------------------------------------------------------- reads

    def service_info(self) -> dict[str, Any]:
        return {
            "workspace_generation": self.generation,
            "verify_key_id": self.verify_key.kid,
            "policy": self.config.policy.summary() if self.config.policy else None,
            "profiles": {"enabled": self.profiles is not None, "error": self.profiles_error},
            "approval_wait_seconds": self.config.approval_wait_seconds,
            "require_sandbox": self.config.require_sandbox,
        }

    def lookup(self, principal: Principal, request_id: str) -> Record:
        record = self._records.get(request_id) if isinstance(request_id, str) else None
        if record is None or (not principal.is_approver and record.submitter_token_id != principal.submitter_key):
            raise ApprovalError("not_found", "no such request")
        return record

    def view(self, principal: Principal, record: Record) -> dict[str, Any]:
        return record_view(record, submitter=not principal.is_approver)

    async def get(self, principal: Principal, request_id: str, wait: float = 0.0) -> Record:
        """A record; with ``wait`` returns once it is final or after ``wait`` seconds (§4)."""
        record = self.lookup(principal, request_id)
        live = self._live.get(request_id)
        if wait <= 0 or record.state != PENDING or live is None:
            return record
        submitter = not principal.is_approver
        if submitter:
            live.waiters += 1
        try:
            await asyncio.wait_for(live.event.wait(), wait)
        except TimeoutError:
            pass
        finally:
            if submitter:
                live.waiters -= 1
                live.last_seen = time.monotonic()
                if live.waiters == 0 and record.state == PENDING:
                    self._arm_gone(record)
        return record

    def list(self, *, state: str | None = None, conversation_id: str | None = None,
             limit: int = 200, submitter_key: str | None = None) -> list[Record]:
        out: list[Record] = []
        for record in reversed(self._records.values()):
            if submitter_key is not None and record.submitter_token_id != submitter_key:
                continue
            if state is not None and record.state != state:
                continue
            if conversation_id is not None and record.conversation_id != conversation_id:
                continue
            out.append(record)
            if len(out) >= limit:
                break
        return out

    # -------------------------------------------------------------------------------- submit

    async def submit(self, principal: Principal, request: ApprovalRequest) -> tuple[bool, Record]:
        """REQ-1 order after transport, credential and schema checks (the edge's); (created, record)."""
        if self._stopping:
            raise ApprovalError("service_stopping", "the approval service is stopping")
        if principal.kind != "submitter":
            raise ApprovalError("unauthenticated", "a submission token is required")
        conv = self._conversations.get(principal.submitter_key or "")
        if conv is None:
            raise ApprovalError("unauthenticated", "a submission token is required")
        check_claims(request)
        if not conv.layer.admits(request.trusted_roots, request.import_roots):
            raise ApprovalError("layer_not_authorized",
                                "trusted_roots and import_roots are not an authorised layer")
        if request.workspace_generation is not None and request.workspace_generation != self.generation:
            raise ApprovalError("workspace_changed", "the workspace changed since this run started")
        while request.request_id in self._inflight:  # a concurrent twin: let it finish, then compare
            await asyncio.shield(self._inflight[request.request_id])
        existing = self._records.get(request.request_id)
        if existing is not None:
            if existing.submitter_token_id != conv.key or existing.payload_sha256 != request.payload_sha256():
                raise ApprovalError("request_id_conflict", "request_id is already used with another payload")
            self._refresh_receipt(existing)
            live = self._live.get(existing.request.request_id)
            if live is not None and existing.state == PENDING:
                live.last_seen = time.monotonic()
                if live.waiters == 0:
                    self._arm_gone(existing)
            return False, existing
        pending = sum(1 for r in self._records.values() if r.state == PENDING and r.submitter_token_id == conv.key)
        if pending >= MAX_PENDING_PER_TOKEN:
            raise ApprovalError("too_many_pending", f"more than {MAX_PENDING_PER_TOKEN} pending requests")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._inflight[request.request_id] = done
        try:
            verifying = start_verify(self.config.verify, request, trusted_roots=conv.layer.trusted_roots,
                                     import_roots=conv.layer.import_roots, project=conv.layer.project,
                                     timeout=self.config.verify_timeout)  # proves while the card is built
            try:
                record = self._new_record(request, conv)
            finally:
                proof = await verifying  # a refusal here wins over anything _new_record raised
            show_proof(record.presentation, proof)
            self._provenance(record)
            await self._automatic(record, conv)
            if self._stopping:
                raise ApprovalError("service_stopping", "the approval service is stopping")
            self._insert(record)
        finally:
            self._inflight.pop(request.request_id, None)
            done.set_result(None)
        return True, record

    def _new_record(self, request: ApprovalRequest, conv: Conversation) -> Record:
        now = time.time()
        wait = self.config.approval_wait_seconds
        if request.approval_timeout_seconds is not None:
            wait = min(wait, float(request.approval_timeout_seconds))
        record = Record(request=request, conversation_id=conv.conversation_id,
                        workspace_generation=self.generation, project=conv.layer.project, created_at=now,
                        expires_at=now + wait, payload_sha256=request.payload_sha256(),
                        submitter_token_id=conv.key, approvals_paused=conv.paused)
        before = self._layer_sha256(request, conv)
        scan = scan_layer(conv.layer.trusted_roots, conv.layer.import_roots)
        # Issue 11 §2: receipts bind the content the card was built from; a layer that changed while the
        # card was built binds nothing (a worker refuses a receipt without its layer's hash).
        after = self._layer_sha256(request, conv)
        record.layer_sha256 = before if before == after else None
        if request.layer_sha256 is not None and request.layer_sha256 != record.layer_sha256:
            raise ApprovalError("layer_changed", "the trusted libraries the worker loaded are not the ones this "
                                                 "authority shows (changed since the run started?); run it again")
        imports, names = program_imports(request.program)
        bound = [bind_guarantee(g, names, scan) for g in request.guarantees]
        record.presentation = build_presentation(request, scan, bound)
        sig = compute_signature(request, project=conv.layer.project, scan=scan, bound=bound, imports=imports)
        if self.profiles is None:
            reason = self.profiles_error or "Profiles are off."
            record.profile = {"eligible": False, "signature": sig.signature, "reason": reason, "history_id": None}
        else:
            record.profile = {"eligible": sig.eligible, "signature": sig.signature, "reason": sig.reason,
                              "history_id": None}
        record.basis = sig.basis
        return record

    def _layer_sha256(self, request: ApprovalRequest, conv: Conversation) -> str | None:
        """The content hash of the layer this authority describes for ``request`` (its authorised one)."""
        return layer_sha256(conv.layer.trusted_roots, conv.layer.import_roots)

    def _provenance(self, record: Record) -> None:
        """Issue 20: classify the literals reaching protected parameters, from the facts just proved."""
        lookup = self.config.provenance
        try:
            if lookup is None:
                # No host, so no transcript; a program that reads and sends in one run is still the person's call.
                # (A request without facts says nothing here, as before: without a host there is no provenance.)
                flows = flow_warnings(record.request.effects) if record.request.effects is not None else []
                if not flows:
                    return
                block: dict[str, Any] = {"checked": False, "items": [], "notes": [], "warnings": flows}
            elif (index := lookup(record.conversation_id)) is None and record.conversation_id is not None:
                # A conversation of this host whose transcript the host does not hold (not the open one: a
                # bridge left over from a switch): nothing says where its values came from (red team w2).
                block = {"checked": False, "items": [], "notes": [], "warnings": [NOT_OPEN]}
            else:
                block = provenance_block(index, record.request.effects, record.request.program)
        except Exception as exc:  # fail closed: an unchecked program is one a person decides
            block = {"checked": False, "items": [], "notes": [],
                     "warnings": [f"clauz3 could not check where this program's values came from ({type(exc).__name__})."]}
        record.presentation["provenance"] = revealed(block)
        record.provenance_warnings = warning_count(block)

    async def _automatic(self, record: Record, conv: Conversation) -> None:
        """AUTO-1: evaluate the policy and the remembered rules, then record what they decide."""
        config = self.config
        chosen = await evaluate_automatic(record, conv, policy=config.policy, entails=config.entails,
                                          timeout=config.policy_timeout, verify=config.verify,
                                          profiles=self.profiles)
        if chosen is not None:
            self._finalise(record, chosen.decision, chosen.decided_by, chosen.rule, chosen.feedback,
                           notify=False, rule_id=chosen.rule_id)

    def _insert(self, record: Record) -> None:
        rid = record.request.request_id
        self._records[rid] = record
        live = _Live()
        self._live[rid] = live
        if record.final:
            live.event.set()
        else:
            loop = asyncio.get_running_loop()
            delay = max(0.0, record.expires_at - time.time())
            live.timers.append(loop.call_later(delay, self._expire, rid))
            self._arm_gone(record)
        self._evict()
        self._notify(record)

    def _arm_gone(self, record: Record) -> None:
        """REQ-3: cancel when no submitter wait has been open for the grace period."""
        live = self._live.get(record.request.request_id)
        if live is None:
            return
        delay = max(0.0, live.last_seen + self.config.submitter_grace_seconds - time.monotonic())
        live.timers.append(asyncio.get_running_loop().call_later(delay, self._check_gone, record.request.request_id))

    def _check_gone(self, rid: str) -> None:
        record = self._records.get(rid)
        live = self._live.get(rid)
        if record is None or live is None or record.state != PENDING or live.waiters > 0:
            return
        if time.monotonic() - live.last_seen >= self.config.submitter_grace_seconds - 0.01:
            self._cancel(record, "submitter_gone")
        else:
            self._arm_gone(record)

    def _expire(self, rid: str) -> None:
        record = self._records.get(rid)
        if record is not None and record.state == PENDING:
            record.state = EXPIRED
            self._settled(record)

    def _evict(self) -> None:
        """REQ-5: at most 2000 records, oldest final ones first, pending ones never."""
        while len(self._records) > MAX_RECORDS:
            victim = next((rid for rid, r in self._records.items() if r.final), None)
            if victim is None:
                return
            self._drop(victim)

    def _drop(self, rid: str) -> None:
        self._records.pop(rid, None)
        live = self._live.pop(rid, None)
        if live is not None:
            for timer in live.timers:
                timer.cancel()
            live.event.set()

    # ------------------------------------------------------------------------------ decisions

    async def decide(self, request_id: str, human: HumanDecision,
                     principal: Principal = APPROVER_IN_PROCESS) -> Record:
        """DEC-1..4 for a human decision (validated when ``human`` was made)."""
        if not principal.is_approver:
            raise ApprovalError("unauthenticated", "an approver credential is required")
        decision, feedback, remember = human.decision, human.feedback, human.remember
        record = self.lookup(principal, request_id)
        if record.state != PENDING:
            code = "already_decided" if record.state in (APPROVED, DENIED) else "not_pending"
            raise ApprovalError(code, f"the request is already {record.state}", state=record.state)
        wants_rule = decision == APPROVED_REMEMBER or remember
        if wants_rule:
            eligible = self.profiles is not None and record.profile.get("eligible")
            if decision == REQUEST_MORE or not eligible:
                raise ApprovalError("not_rememberable", "this decision cannot be remembered for this request")
            if decision == APPROVED_ONCE:
                decision = APPROVED_REMEMBER
        self._finalise(record, decision, "human", None, feedback, remember=bool(wants_rule))
        return record

    async def cancel(self, principal: Principal, request_id: str) -> Record:
        if principal.kind != "submitter":
            raise ApprovalError("unauthenticated", "a submission token is required")
        record = self.lookup(principal, request_id)
        if record.state != PENDING:
            code = "already_decided" if record.state in (APPROVED, DENIED) else "not_pending"
            raise ApprovalError(code, f"the request is already {record.state}", state=record.state)
        self._cancel(record, "submitter_cancelled")
        return record

    def _cancel(self, record: Record, reason: str) -> None:
        record.state = CANCELLED
        record.cancel_reason = reason
        self._settled(record)

    def _finalise(self, record: Record, decision: str, decided_by: str, rule: dict[str, Any] | None,
                  feedback: str | None, *, notify: bool = True, remember: bool = False,
                  rule_id: str | None = None) -> None:
        if self.profiles is not None:
            # PRO-10: history (and a remembered rule) first, so a store failure changes no state.
            signature = record.profile["signature"] if record.profile.get("eligible") else None
            history_id, new_rule = self.profiles.append(
                project=record.project, record=record_view(record, submitter=False), signature=signature,
                basis=record.basis if signature else None, decision=decision, decided_by=decided_by,
                rule_id=rule_id, remember=remember)
            record.profile = {**record.profile, "history_id": history_id}
            if new_rule is not None:
                rule = profile_rule(new_rule)
        record.decision = check_decision(decision)
        record.decided_by = decided_by
        record.rule = rule if decided_by != "human" or remember else None
        record.feedback = feedback
        record.decided_at = time.time()
        record.state = APPROVED if is_approving(decision) else DENIED
        if is_approving(decision):
            self._mint(record)
        if notify:
            self._settled(record)

    def _mint(self, record: Record) -> None:
        assert record.decision is not None
        receipt, claims = issue_receipt(
            self._key, request_id=record.request.request_id, program_sha256=record.request.program_sha256,
            consent_sha256=record.request.consent_sha256(), decision=record.decision,
            workspace_generation=record.workspace_generation, project_sha256=project_sha256(record.project),
            lifetime=LIFETIME_SECONDS, layer_sha256=record.layer_sha256,
            data_sha256=data_sha256(self.config.data_dir))
        record.receipt, record.receipt_nonce, record.receipt_expires_at = receipt, claims.nonce, claims.expires_at

    def _refresh_receipt(self, record: Record) -> None:
        """REQ-4: a retried approved request gets a fresh receipt once < 60 s of validity remain."""
        if record.state == APPROVED and (record.receipt_expires_at or 0) - time.time() < REMINT_BELOW_SECONDS:
            self._mint(record)
            self._notify(record)

    def _settled(self, record: Record) -> None:
        live = self._live.get(record.request.request_id)
        if live is not None:
            for timer in live.timers:
                timer.cancel()
            live.timers.clear()
            live.event.set()
        self._notify(record)

    def _notify(self, record: Record) -> None:
        if not self._listeners or record.request.request_id not in self._records:
            return
        view = record_view(record, submitter=False)
        for callback in list(self._listeners):
            try:
                result = callback(view)
                if inspect.isawaitable(result):
                    task = asyncio.ensure_future(result)
                    task.add_done_callback(_ignore_task_error)
            except Exception as exc:  # a broken listener never breaks a decision
                print(f"warning: approval listener failed: {type(exc).__name__}", file=sys.stderr)

    # ------------------------------------------------------------------------------ profiles

    def _require_profiles(self) -> ProfileStore:
        if self.profiles is None:
            raise ApprovalError("not_found", "approval profiles are off")
        return self.profiles

    def profile_snapshot(self, limit: int = 200) -> dict[str, Any]:
        return self._require_profiles().snapshot(self.project, limit)

    def remember(self, history_id: str) -> str:
        return self._require_profiles().remember(self.project, history_id)

    def disable(self, rule_id: str) -> None:
        self._require_profiles().disable(self.project, rule_id)


def _ignore_task_error(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        print(f"warning: approval listener failed: {type(task.exception()).__name__}", file=sys.stderr)
