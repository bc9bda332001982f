"""The mock authority (03 CLI-8): the real submit/read/cancel surface with a configured decision.

Approving answers carry real receipts signed with the configured or a throwaway key. The
in-process form :class:`MockApprovalService` serves it on 127.0.0.1 in a background thread.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
from clauz3.approvals.decisions import (
    ALL_DECISIONS,
    APPROVED_ONCE,
    AUTOMATIC_DECISIONS,
    UnknownDecision,
    check_decision,
)
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.keys import SigningKey, VerifyKey
from clauz3.approvals.layers import AuthorisedLayer, layer_sha256
from clauz3.approvals.principals import STANDALONE, Conversation
from clauz3.approvals.requests import PENDING, ApprovalRequest, Record
from clauz3.approvals.tokens import generate_token

HASH_MISMATCH_FEEDBACK = "program hash did not match the mock configuration"
CONFIG_KEYS = ("decision", "feedback", "delay_seconds", "require_program_sha256")


class MockConfigError(ApprovalError, ValueError):
    def __init__(self, message: str) -> None:
        super().__init__("invalid_mock_config", message)


@dataclass(frozen=True)
class MockConfig:
    decision: str = APPROVED_ONCE
    feedback: str | None = None
    delay_seconds: float = 0.0
    require_program_sha256: str | None = None

    @classmethod
    def from_json(cls, doc: Any) -> MockConfig:
        if not isinstance(doc, dict):
            raise MockConfigError("mock config must be a JSON object")
        unknown = set(doc) - set(CONFIG_KEYS)
        if unknown:
            raise MockConfigError(f"unknown mock config key {sorted(unknown)[0]!r}")
        try:
            decision = check_decision(doc.get("decision", APPROVED_ONCE), ALL_DECISIONS)
        except UnknownDecision as exc:
            raise MockConfigError(f"mock decision must be one of: {', '.join(ALL_DECISIONS)}") from exc
        feedback = doc.get("feedback")
        if feedback is not None and (not isinstance(feedback, str) or len(feedback) > 4000):
            raise MockConfigError("mock feedback must be a string of at most 4000 characters")
        delay = doc.get("delay_seconds", 0)
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= 60:
            raise MockConfigError("mock delay_seconds must be a number from 0 to 60")
        digest = doc.get("require_program_sha256")
        if digest is not None and (not isinstance(digest, str) or len(digest) != 64):
            raise MockConfigError("mock require_program_sha256 must be 64 hex digits")
        return cls(decision, feedback, float(delay), digest)

    @classmethod
    def load(cls, path: Path) -> MockConfig:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise MockConfigError(f"cannot read mock config {path}: {exc}") from exc
        return cls.from_json(doc)


class _AnyLayer(AuthorisedLayer):
    """The mock knows no layers: every root list is accepted (it authorises nothing real)."""

    def admits(self, trusted_roots: Iterable[str], import_roots: Iterable[str]) -> bool:
        return True


class MockAuthority(ApprovalAuthority):
    def __init__(self, config: AuthorityConfig, mock: MockConfig) -> None:
        super().__init__(config)
        self.mock = mock
        self.received: list[dict[str, Any]] = []

    def register_submitter(self, token: str | None = None) -> str:
        chosen = token or generate_token()
        self._conversations[STANDALONE] = Conversation(STANDALONE, None, chosen, _AnyLayer(self.project, (), ()))
        return chosen

    def _layer_sha256(self, request: ApprovalRequest, conv: Conversation) -> str | None:
        # It authorises any roots, so its receipts bind the content of the roots each request names.
        return layer_sha256(request.trusted_roots, request.import_roots)

    async def _automatic(self, record: Record, conv: Conversation) -> None:
        self.received.append(record.request.to_json())
        if self.mock.delay_seconds == 0:
            self._mock_decide(record, notify=False)
        else:
            asyncio.get_running_loop().call_later(self.mock.delay_seconds, self._later, record.request.request_id)

    def _later(self, rid: str) -> None:
        record = self._records.get(rid)
        if record is not None and record.state == PENDING:
            self._mock_decide(record, notify=True)

    def _mock_decide(self, record: Record, *, notify: bool) -> None:
        decision, feedback = self.mock.decision, self.mock.feedback
        required = self.mock.require_program_sha256
        if required is not None and required != record.request.program_sha256:
            decision, feedback = "rejected", HASH_MISMATCH_FEEDBACK
        if decision in AUTOMATIC_DECISIONS:
            rule = {"source": "policy", "id": "mock", "name": "mock", "reason": feedback or "mock decision"}
            self._finalise(record, decision, "policy", rule, feedback, notify=notify)
        else:
            self._finalise(record, decision, "human", None, feedback, notify=notify)


class MockApprovalService:
    """``with MockApprovalService(data_dir, project, decision="approved_once") as svc: svc.url, svc.token``."""

    def __init__(self, data_dir: Path, project: str | Path, *, signing_key: SigningKey | None = None,
                 **mock: Any) -> None:
        self._mock = MockConfig.from_json(mock)
        self._key = signing_key or SigningKey.generate()
        self._data = data_dir
        self._project = str(project)
        self.url = ""
        self.token = ""
        self.verify_key: VerifyKey = self._key.verify_key
        self.authority: MockAuthority | None = None
        self._thread: threading.Thread | None = None
        self._server: Any = None

    @property
    def requests(self) -> list[dict[str, Any]]:
        return list(self.authority.received) if self.authority else []

    def __enter__(self) -> MockApprovalService:
        import uvicorn

        from clauz3.approvals.app import ApprovalHTTP, build_app
        from clauz3.approvals.cookies import SessionCookies

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no ~40 ms Nagle wait per response
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        self.authority = MockAuthority(AuthorityConfig(self._data, self._project, self._key), self._mock)
        self.token = self.authority.register_submitter()
        http = ApprovalHTTP(self.authority, SessionCookies(self._data, self._project), port=port, mock=True)
        config = uvicorn.Config(build_app(http), log_level="warning", access_log=False, lifespan="on")
        self._server = uvicorn.Server(config)
        self._server.capture_signals = _no_signals
        self.url = f"http://127.0.0.1:{port}"
        self._thread = threading.Thread(target=lambda: asyncio.run(self._server.serve(sockets=[sock])),
                                        daemon=True, name="mock-approval-service")
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("mock approval service failed to start")
            threading.Event().wait(0.01)
        self._publish_anchor()
        return self

    def _publish_anchor(self) -> None:
        """The in-process form is the tests' own authority: it tells ``clauz3 run`` to trust it, as a
        person's approval service does, unless a real one is live for the project (issue 11 §3). The
        CLI form never does this; only Python code holding this object can."""
        from clauz3.approvals.anchor import AUTHORITY, MOCK, AnchorRecord, read_anchor, write_anchor
        from clauz3.storage.paths import canonical_project

        live = read_anchor(self._data, self._project)
        if live is not None and live.kind == AUTHORITY:
            self.__exit__(None, None, None)
            raise RuntimeError("a real approval service is running for this project; the mock does not run beside it")
        write_anchor(self._data, AnchorRecord(MOCK, self.url, self.verify_key.text, canonical_project(self._project),
                                              None, None, os.getpid()))
        self._anchored = True

    def __exit__(self, *exc: object) -> None:
        if getattr(self, "_anchored", False):
            from clauz3.approvals.anchor import remove_anchor

            remove_anchor(self._data, self._project)
            self._anchored = False
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)


def _no_signals() -> Any:
    from contextlib import nullcontext

    return nullcontext()
