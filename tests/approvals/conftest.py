"""Shared fixtures: a temp data dir, a project holding the email example library, request builders."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from clauz3.approvals.app import ApprovalHTTP, build_app
from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
from clauz3.approvals.cookies import SessionCookies
from clauz3.approvals.tokens import generate_token

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "email" / "tools"
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"

PROGRAM = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''
GUARANTEES = ['emails.only(["bob@example.com"])', "emails.at_most(1)"]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    return data


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(EXAMPLE, root / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def roots(project: Path) -> tuple[list[str], list[str]]:
    return [str(project / "tools" / "email" / "trusted")], [str(project)]


def make_request(project: Path, *, request_id: str = "req_00000001", program: str = PROGRAM,
                 guarantees: list[str] | None = None, **over: Any) -> dict[str, Any]:
    trusted, imports = roots(project)
    body: dict[str, Any] = {
        "schema_version": 1, "kind": "clauz3.run", "request_id": request_id, "program": program,
        "program_sha256": hashlib.sha256(program.encode()).hexdigest(), "source_name": "<stdin>",
        "target": "main", "trusted_roots": trusted, "import_roots": imports,
        "guarantees": list(GUARANTEES if guarantees is None else guarantees),
        "coverage": [{"domain": "email", "status": "covered", "missing_required": [], "missing_recommended": []}],
        "proofs": [{"name": g, "conclusion": "proved", "description": "ok"} for g in
                   (GUARANTEES if guarantees is None else guarantees)],
        "execution_timeout_seconds": 60,
        "sandbox": {"mode": "unavailable", "detail": "tests", "extra_read": [], "extra_write": []},
    }
    body.update(over)
    return body


def proved_request(project: Path, *, request_id: str = "req_00000001", program: str = PROGRAM) -> dict[str, Any]:
    """:func:`make_request` with the real prover's guarantees, coverage and proofs, as a worker builds it:
    an authority that proves the program itself (issue 11 §5) refuses the placeholder claims."""
    import json
    import os
    import subprocess
    import sys

    path = project.parent / "proved_request.py"
    path.write_text(program)
    trusted, imports = roots(project)
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--trusted-root", trusted[0],
                          "--import-root", imports[0], str(path)], cwd=project, capture_output=True, text=True,
                         timeout=120, env={k: v for k, v in os.environ.items() if k != "CLAUZ3_PROOF_CACHE"})
    obligations = json.loads(out.stdout)["entries"][0]["obligations"]
    coverage = json.loads(out.stdout)["entries"][0]["coverage"]
    keys = ("domain", "status", "missing_required", "missing_recommended")
    return make_request(project, request_id=request_id, program=program,
                        guarantees=[o["expression"] for o in obligations if o["kind"] == "guarantee"],
                        coverage=[{k: c[k] for k in keys} for c in coverage],
                        proofs=[{"name": "main", "conclusion": o["conclusion"], "description": o["description"]}
                                for o in obligations])


class Harness:
    """An authority plus its HTTP component behind a TestClient on 127.0.0.1:8765."""

    def __init__(self, data: Path, project: Path, **config: Any) -> None:
        self.project = project
        self.authority = ApprovalAuthority(AuthorityConfig(data_dir=data, project=str(project), **config))
        trusted, imports = roots(project)
        self.token = self.authority.register_conversation(None, trusted, imports)
        self.approver = generate_token()
        self.cookies = SessionCookies(data, str(project))
        self.http = ApprovalHTTP(self.authority, self.cookies, approver_token=self.approver, port=PORT)
        self.app = build_app(self.http)
        self.client = TestClient(self.app, base_url=BASE)

    def sub(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def appr(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.approver}"}

    def cookie(self) -> dict[str, str]:
        """A signed-in page's credentials: the cookie and (issue 19) the page secret it holds."""
        return {"Cookie": f"{self.cookies.name}={self.cookies.issue()}", "Origin": BASE,
                "X-Clauz3-Page": self.cookies.issue_page()}

    def submit(self, body: dict[str, Any]) -> Any:
        return self.client.post("/api/requests", json=body, headers=self.sub())

    def decide(self, rid: str, body: Any) -> Any:
        return self.client.post(f"/api/requests/{rid}/decision", json=body, headers=self.appr())


@pytest.fixture
def harness(data_dir: Path, project: Path) -> Iterator[Harness]:
    h = Harness(data_dir, project)
    with h.client:
        yield h
