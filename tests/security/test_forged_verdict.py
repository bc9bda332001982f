"""Issue 11 §5: a same-user process holding the submission token cannot make a card show "proved".

A real ``clauz3 approval-service`` (its own prover child, real libraries) receives requests over
HTTP on 127.0.0.1 from a process that knows the submission token, as a process reading the bridge's
environment would. Before the fix the authority checked only that every claimed proof said
"proved", so a program whose guarantee fails got a pending card listing its guarantees as proved.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
TOKEN = "forged-verdict-submitter-token-0123456789"
APPROVER = "forged-verdict-approver-token-0123456789ab"
HONEST = (REPO / "examples" / "email" / "main.py").read_text()
# Two emails under "at most 1": the guarantee fails, whatever the request says.
FAILING = HONEST.replace('    send_email("bob@example.com", "Hi from clauz3")',
                         '    send_email("bob@example.com", "Hi from clauz3")\n    send_email("bob@example.com", "again")')


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    proj = tmp_path_factory.mktemp("forged") / "proj"
    shutil.copytree(REPO / "examples" / "email" / "tools", proj / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    return Path(os.path.realpath(proj))


def _env(project: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(project.parent / "data"), CLAUZ3_CACHE=str(project.parent / "cache"), **extra)
    return env


@pytest.fixture(scope="module")
def service(project: Path) -> Iterator[httpx.Client]:
    args = [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--project", str(project),
            "--trusted-root", str(project / "tools" / "email" / "trusted"), "--import-root", str(project)]
    env = _env(project, CLAUZ3_APPROVAL_TOKEN=TOKEN, CLAUZ3_APPROVAL_DECISION_TOKEN=APPROVER)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        url = ""
        while not url:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            if line.startswith("CLAUZ3_APPROVAL_SERVICE="):
                url = line.strip().split("=", 1)[1]
        with httpx.Client(base_url=url, trust_env=False, timeout=120) as client:
            yield client
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def proved_entry(project: Path, program: str, *extra: str) -> dict[str, Any]:
    """What ``clauz3 prove`` says of ``program`` (the honest submitter's evidence)."""
    path = project.parent / "evidence.py"
    path.write_text(program)
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", "--trusted-root",
                          "tools/email/trusted", "--import-root", ".", *extra, str(path)], cwd=project,
                         env=_env(project), capture_output=True, text=True, timeout=120)
    entry: dict[str, Any] = json.loads(out.stdout)["entries"][0]
    return entry


def request(project: Path, rid: str, program: str, entry: dict[str, Any], *, all_proved: bool = False
            ) -> dict[str, Any]:
    """The request a worker builds from a proof entry; ``all_proved`` forges every conclusion."""
    obligations = entry["obligations"]
    keys = ("domain", "status", "missing_required", "missing_recommended")
    return {
        "schema_version": 1, "kind": "clauz3.run", "request_id": rid, "program": program,
        "program_sha256": hashlib.sha256(program.encode()).hexdigest(), "source_name": "<stdin>", "target": "main",
        "trusted_roots": [str(project / "tools" / "email" / "trusted")], "import_roots": [str(project)],
        "guarantees": [o["expression"] for o in obligations if o["kind"] == "guarantee"],
        "coverage": [{k: c[k] for k in keys} for c in entry["coverage"]],
        "proofs": [{"name": "main", "conclusion": "proved" if all_proved else o["conclusion"],
                    "description": o["description"]} for o in obligations],
        "execution_timeout_seconds": 60,
        "sandbox": {"mode": "unavailable", "detail": "test", "extra_read": [], "extra_write": []},
    }


def submit(client: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    return client.post("/api/requests", json=body, headers={"Authorization": f"Bearer {TOKEN}"})


def cards(client: httpx.Client) -> list[dict[str, Any]]:
    got = client.get("/api/requests", headers={"Authorization": f"Bearer {APPROVER}"})
    assert got.status_code == 200, got.text
    body = got.json()
    return list(body["requests"] if isinstance(body, dict) else body)


def test_a_claimed_proof_of_a_failing_guarantee_gets_no_card(service: httpx.Client, project: Path) -> None:
    entry = proved_entry(project, FAILING)
    assert any(o["conclusion"] == "violated" for o in entry["obligations"])
    refused = submit(service, request(project, "req_forged_0001", FAILING, entry, all_proved=True))
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"]["code"] == "unproved_request"
    assert "authority's own proof" in refused.json()["error"]["message"]
    assert all(c["request_id"] != "req_forged_0001" for c in cards(service))


def test_claims_that_differ_from_the_authoritys_proof_get_no_card(service: httpx.Client, project: Path) -> None:
    entry = proved_entry(project, HONEST)
    body = request(project, "req_forged_0002", HONEST, entry)
    body["guarantees"] = body["guarantees"][:1]  # hide two of the three guarantees
    assert submit(service, body).json()["error"]["code"] == "claims_mismatch"
    body = request(project, "req_forged_0003", HONEST, entry)
    body["proofs"] = [dict(body["proofs"][0], description="guarantee emails.none()"), *body["proofs"][1:]]
    assert submit(service, body).json()["error"]["code"] == "claims_mismatch"
    body = request(project, "req_forged_0004", HONEST, entry)
    body["coverage"] = []
    assert submit(service, body).json()["error"]["code"] == "claims_mismatch"
    # the card's plan: "sends nothing" for a program that sends an email
    body = request(project, "req_forged_0005", HONEST, entry)
    body["effects"] = {"complete": True, "effects": []}
    assert submit(service, body).json()["error"]["code"] == "claims_mismatch"


def test_an_honest_request_gets_the_authoritys_proof_and_a_retry_skips_the_solver(service: httpx.Client,
                                                                                   project: Path) -> None:
    program = HONEST.replace("Hi from clauz3", "Hi, first time")  # not yet proved by this authority
    entry = proved_entry(project, program)
    first = submit(service, request(project, "req_honest_0001", program, entry))
    assert first.status_code == 201, first.text
    proof = first.json()["presentation"]["proof"]
    assert proof["by"] == "authority" and proof["status"] == "proved" and proof["obligations"] > 0
    assert proof["cached"] is False
    # The same program again (a retry under a new id, a remembered approval, the same starter twice).
    again = submit(service, request(project, "req_honest_0002", program, entry))
    assert again.status_code == 201, again.text
    assert again.json()["presentation"]["proof"]["cached"] is True


def test_the_authoritys_prover_follows_library_content_not_mtimes(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A same-size edit of a trusted library with its mtime restored: the warm child re-proves the new bytes."""
    from clauz3.approvals.verdicts import ProofQuery
    from clauz3.prover.verify import ProofVerifier

    proj = tmp_path / "proj"
    shutil.copytree(REPO / "examples" / "email" / "tools", proj / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    trusted = (str(proj / "tools" / "email" / "trusted"),)
    query = ProofQuery(HONEST, "main", trusted, (str(proj),), str(proj), 60.0)
    verifier = ProofVerifier()
    try:
        first = verifier(query)["entry"]
        assert first["status"] == "proved" and first["cached"] is False
        assert verifier(query)["entry"]["cached"] is True and verifier.proofs == 1
        contracts = proj / "tools" / "email" / "trusted" / "contracts.py"
        st = contracts.stat()
        text = contracts.read_text()
        edited = text.replace("return effect(send_email).count() <= count", "return effect(send_email).count() <  count")
        assert len(edited) == len(text) and edited != text
        contracts.write_text(edited)
        os.utime(contracts, ns=(st.st_atime_ns, st.st_mtime_ns))
        again = verifier(query)["entry"]
        assert again["cached"] is False and again["layer_sha256"] != first["layer_sha256"]
        assert ("guarantee emails.at_most(1)", "violated") in [(o["description"], o["conclusion"])
                                                               for o in again["obligations"]]
    finally:
        verifier.close()


async def test_no_verdict_from_the_authoritys_prover_means_no_card(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A library that does not load: the authority's prover gives no verdict, so the request is refused."""
    from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
    from clauz3.approvals.errors import ApprovalError
    from clauz3.approvals.requests import parse_request
    from clauz3.prover.verify import ProofVerifier

    proj = tmp_path / "proj"
    shutil.copytree(REPO / "examples" / "email" / "tools", proj / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    proj = Path(os.path.realpath(proj))
    entry = proved_entry(proj, HONEST)  # proved while the library was intact
    (proj / "tools" / "email" / "trusted" / "contracts.py").write_text("def broken(:\n")
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    verifier = ProofVerifier()
    authority = ApprovalAuthority(AuthorityConfig(data_dir=tmp_path / "data", project=str(proj), verify=verifier))
    token = authority.register_conversation(None, [str(proj / "tools" / "email" / "trusted")], [str(proj)])
    principal = authority.submitter_for(token)
    assert principal is not None
    try:
        with pytest.raises(ApprovalError) as refused:
            await authority.submit(principal, parse_request(request(proj, "req_broken_0001", HONEST, entry)))
        assert refused.value.code == "proof_unverified", refused.value.message
        assert authority.list() == []
    finally:
        await authority.close()


def test_the_authority_proves_with_the_requests_import_allowlist(service: httpx.Client, project: Path) -> None:
    """``clauz3 run --allow-import``: the request names the allowlist and the authority proves with it."""
    program = HONEST.replace("import clauz3\n", "import clauz3\nimport json\n").replace("Hi from", "Hi, json, from")
    entry = proved_entry(project, program, "--allow-import", "json")
    assert entry["status"] == "proved"
    without = submit(service, request(project, "req_allow_0001", program, entry))
    assert without.status_code == 400 and without.json()["error"]["code"] == "unproved_request"
    body = dict(request(project, "req_allow_0002", program, entry), allow_imports=["json"])
    created = submit(service, body)
    assert created.status_code == 201, created.text
    assert created.json()["allow_imports"] == ["json"]
