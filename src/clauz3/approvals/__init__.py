"""The approval authority (spec 03 §2–§11): keys, tokens, receipts, requests, decisions,
policies, profiles, card data and the approval HTTP routes.

Public surface for other packages (exact signatures)
----------------------------------------------------
Session host (in-process, same event loop; 03 API-4, 00 DEC-5)::

    from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
    from clauz3.approvals.principals import Principal
    from clauz3.approvals.decisions import HumanDecision
    AuthorityConfig(data_dir: Path, project: str, signing_key: SigningKey = <fresh>,
                    approval_wait_seconds: float = 300.0, require_sandbox: bool = False,
                    policy: Policy | None = None, policy_timeout: float = 20.0,
                    entails: Entailment = never_entails, profiles: bool = False,
                    submitter_grace_seconds: float = 15.0, workspace_generation: str | None = None,
                    verify: Verifier | None = None, verify_timeout: float = 60.0)
    # verify: the authority's own proof of each request (issue 11 §5); the product passes
    # clauz3.prover.verify.ProofVerifier() (also `entails=verifier.entails`); None labels proofs "claimed"
    a = ApprovalAuthority(config)
    a.register_conversation(conversation_id: str | None, trusted_roots, import_roots, *, token=None) -> str
    a.end_conversation(conversation_id: str | None, reason: str = "bridge_gone") -> None
    a.cancel_pending(conversation_id: str | None, reason: str) -> None          # "stopped", "bridge_gone"
    a.set_paused(conversation_id: str | None, paused: bool) -> None
    a.switch_workspace(project: str, generation: str | None = None) -> str       # new generation
    a.on_change(callback: Callable[[dict], Awaitable[None] | None]) -> Callable[[], None]  # approver view
    await a.submit(principal: Principal, request: ApprovalRequest) -> tuple[bool, Record]  # parse_request(body)
    await a.decide(request_id: str, human: HumanDecision, principal: Principal = APPROVER_IN_PROCESS) -> Record
    # HumanDecision(decision, feedback=None, remember=False) validates DEC-2 when made
    a.list(*, state=None, conversation_id=None, limit=200, submitter_key=None) -> list[Record]
    a.lookup(principal: Principal, request_id: str) -> Record
    a.view(principal: Principal, record: Record) -> dict                        # §5.2 JSON
    a.service_info() -> dict; a.profile_snapshot(limit=200) -> dict
    a.remember(history_id: str) -> str; a.disable(rule_id: str) -> None
    a.begin_stop() -> None; await a.close() -> None
    a.verify_key: VerifyKey (.text, .kid); a.generation: str

HTTP component (mount in the host app, or serve alone)::

    from clauz3.approvals.app import ApprovalHTTP, build_app
    http = ApprovalHTTP(authority, SessionCookies(data_dir, project), approver_token: str | None = None,
                        login_check: Callable[[str], bool] | None = None, port: int | None = None,
                        hostnames=("127.0.0.1", "localhost", "[::1]"), include_ui=True, mock=False)
    http.routes() -> list[starlette.routing.Route]; http.route_specs() -> list[RouteSpec]
    # error codes → HTTP statuses only here: clauz3.approvals.statuses.http_status(code)
    build_app(http) -> Starlette
    clauz3.approvals.transport.check_host(conn, port=, hostnames=)
    clauz3.approvals.cookies.SessionCookies(data: Path, project: str)  # .name .issue() .verify(v) .set_header(v)

Runner / worker (receipt check and durable single use; 03 §11)::

    from clauz3.approvals.receipts import verify_receipt, ReceiptError, ReceiptClaims
    verify_receipt(receipt: str | None, key: VerifyKey, *, request_id: str, program: str,
                   guarantees: Sequence[str], coverage: Sequence[dict], target: str, project: str,
                   workspace_generation: str | None = None, now: float | None = None) -> ReceiptClaims
    # single use is checked by the runs package, which owns the ledger file (runs.sqlite):
    clauz3.runs.nonces.consume(conn, claims: ReceiptClaims, *, now=None) -> None  # inside the caller's
                                                           # transaction; raises ReceiptError("receipt_replayed")
    clauz3.approvals.keys.VerifyKey.from_text(text)
    clauz3.approvals.requests.new_request_id() -> str; parse_request(obj) -> ApprovalRequest
    clauz3.approvals.decisions: ALL_DECISIONS, HUMAN_DECISIONS, APPROVING, LABELS, check_decision(value, allowed)
    clauz3.storage.paths: data_dir(), ledger_path(data, project), project_sha256(project)

Policies (``policy-check`` and the prover's entailment)::

    from clauz3.approvals.policies import load_policy, parse_policy, evaluate_policy, EntailmentQuery
    load_policy(path: Path) -> Policy   # raises PolicyError naming rule index and name
    await evaluate_policy(policy, *, program, target, trusted_roots, import_roots, project,
                          entails: Callable[[EntailmentQuery], bool], timeout=20.0) -> PolicyOutcome
    # entails returns True iff every clause is proved, False if one is refuted/unknown, raises when
    # undecidable; it must run the prover out of process (LIFE-5, POL-6).

Tests: ``clauz3.approvals.mock.MockApprovalService(data_dir, project, signing_key=None, **config)`` is a
context manager exposing ``url``, ``token``, ``verify_key`` and ``requests``.
"""
