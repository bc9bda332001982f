"""03 §17.2/17.3/17.5: approval-service, approval-keygen and mock-approval-service as real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from clauz3.approvals.keys import SigningKey, write_keypair
from clauz3.approvals.mock import MockApprovalService
from clauz3.approvals.receipts import verify_receipt

from .conftest import make_request, proved_request, roots


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update({"CLAUZ3_HOME": str(data), **extra})
    return env


def _clauz3(*args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60)


def test_keygen_stdout_and_out_dir(tmp_path: Path) -> None:
    env = _env(tmp_path / "data")
    printed = _clauz3("approval-keygen", env=env)
    assert printed.returncode == 0 and "keep secret" in printed.stdout
    lines = dict(line.split("=", 1) for line in printed.stdout.splitlines() if "=" in line)
    assert SigningKey.from_text(lines["CLAUZ3_APPROVAL_SIGNING_KEY"]).verify_key.text == \
        lines["CLAUZ3_APPROVAL_VERIFY_KEY"]
    out = tmp_path / "keys"
    first = _clauz3("approval-keygen", "--out", str(out), env=env)
    assert first.returncode == 0
    signing = (out / "signing.key").read_text().strip()
    assert signing not in first.stdout
    assert (out / "signing.key").stat().st_mode & 0o777 == 0o600
    assert (out / "verify.key").stat().st_mode & 0o777 == 0o600 and out.stat().st_mode & 0o777 == 0o700
    second = _clauz3("approval-keygen", "--out", str(out), env=env)
    assert second.returncode == 2 and second.stderr.startswith("error: ") and second.stderr.count("\n") == 1
    forced = _clauz3("approval-keygen", "--out", str(out), "--force", env=env)
    assert forced.returncode == 0 and (out / "signing.key").read_text().strip() != signing


def test_approval_service_refusals_before_listening(tmp_path: Path, project: Path) -> None:
    data = tmp_path / "data"
    cases = [
        (["--host", "0.0.0.0"], {}, "refusing non-loopback address 0.0.0.0: clauz3 services listen on loopback only"),
        (["--host", "192.168.1.1"], {}, "refusing non-loopback address"),
        ([], {"CLAUZ3_APPROVAL_TOKEN": "a" * 40, "CLAUZ3_APPROVAL_DECISION_TOKEN": "a" * 40},
         "CLAUZ3_APPROVAL_TOKEN"),
        ([], {"CLAUZ3_APPROVAL_DECISION_TOKEN": "short"}, "CLAUZ3_APPROVAL_DECISION_TOKEN"),
        (["--approval-wait", "5"], {}, "--approval-wait"),
        (["--policy", str(tmp_path / "missing.json")], {}, "missing.json"),
    ]
    loose = tmp_path / "loose"
    _, signing, _ = write_keypair(loose)
    signing.chmod(0o640)
    cases.append((["--signing-key-file", str(signing)], {}, f"insecure permissions on {signing}"))
    bad_policy = tmp_path / "policy.json"
    bad_policy.write_text(json.dumps({"version": 1, "rules": [
        {"name": "x", "decision": "approved", "when_proven": ["a"]}]}))
    cases.append((["--policy", str(bad_policy)], {}, "policy rule 1 (x)"))
    for args, extra, needle in cases:
        out = _clauz3("approval-service", "--port", "0", "--project", str(project), *args,
                      env=_env(data, **extra))
        assert out.returncode == 2, (args, out.stderr)
        assert needle in out.stderr and out.stdout == "", (args, out.stderr)


def test_approval_service_serves_and_stops_cleanly(tmp_path: Path, project: Path) -> None:
    data = tmp_path / "data"
    trusted, imports = roots(project)
    args = [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--project", str(project),
            "--trusted-root", trusted[0], "--import-root", imports[0]]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(data))
    try:
        assert proc.stdout is not None
        banner: dict[str, str] = {}
        ui_line = ""
        while len(banner) < 3 or not ui_line:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            if line.startswith("Approver UI (keep private): "):
                ui_line = line.strip()
            elif "=" in line:
                key, value = line.strip().split("=", 1)
                banner[key] = value
        url = banner["CLAUZ3_APPROVAL_SERVICE"]
        assert url.startswith("http://127.0.0.1:")
        approver = ui_line.split("key=", 1)[1]
        assert approver != banner["CLAUZ3_APPROVAL_TOKEN"]
        client = httpx.Client(timeout=90.0, base_url=url, trust_env=False)
        assert client.get("/health").json() == {"ok": True}
        token = banner["CLAUZ3_APPROVAL_TOKEN"]
        sub = {"Authorization": f"Bearer {token}"}
        created = client.post("/api/requests", json=proved_request(project), headers=sub)
        assert created.status_code == 201, created.text
        decided = client.post("/api/requests/req_00000001/decision", json={"decision": "approved_once"},
                              headers={"Authorization": f"Bearer {approver}"})
        assert decided.status_code == 200
        mine = client.get("/api/requests/req_00000001?wait=1", headers=sub).json()
        body = proved_request(project)
        from clauz3.approvals.keys import VerifyKey

        verify_receipt(mine["receipt"], VerifyKey.from_text(banner["CLAUZ3_APPROVAL_VERIFY_KEY"]),
                       request_id="req_00000001", program=body["program"], guarantees=body["guarantees"],
                       coverage=body["coverage"], target="main", project=str(project))
        client.post("/api/requests", json=proved_request(project, request_id="req_00000002"), headers=sub)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        stderr = proc.stderr.read() if proc.stderr else ""
        for secret in (token, approver, mine["receipt"]):
            assert secret not in stderr
        assert "GET /" not in stderr  # access logs are off
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_mock_service_config_errors(tmp_path: Path) -> None:
    config = tmp_path / "mock.json"
    config.write_text(json.dumps({"decision": "approved"}))
    out = _clauz3("mock-approval-service", "--config", str(config), env=_env(tmp_path / "data"))
    assert out.returncode == 2
    for decision in ("approved_once", "approved_remember", "auto_approved", "rejected", "rejected_contract",
                     "request_more", "auto_rejected"):
        assert decision in out.stderr
    config.write_text(json.dumps({"delay_seconds": 61}))
    assert _clauz3("mock-approval-service", "--config", str(config), env=_env(tmp_path / "data")).returncode == 2
    assert _clauz3("mock-approval-service", "--config", str(config), "--host", "0.0.0.0",
                   env=_env(tmp_path / "data")).returncode == 2


def test_in_process_mock_signs_real_receipts(tmp_path: Path, project: Path) -> None:
    key = SigningKey.generate()
    with MockApprovalService(tmp_path / "data", project, signing_key=key) as svc:
        client = httpx.Client(timeout=90.0, base_url=svc.url, trust_env=False)
        sub = {"Authorization": f"Bearer {svc.token}"}
        answer = client.post("/api/requests", json=make_request(project), headers=sub).json()
        assert answer["state"] == "approved" and answer["decision"] == "approved_once"
        body = make_request(project)
        claims = verify_receipt(answer["receipt"], svc.verify_key, request_id="req_00000001",
                                program=body["program"], guarantees=body["guarantees"], coverage=body["coverage"],
                                target="main", project=str(project))
        assert claims.decision == "approved_once" and len(svc.requests) == 1
        assert client.post("/api/requests/req_00000001/decision", json={"decision": "rejected"},
                           headers=sub).status_code == 404
        assert client.get("/api/requests", headers=sub).json()["requests"][0]["request_id"] == "req_00000001"
        assert client.get("/health", headers={"Host": "evil.example"}).status_code == 400
    with MockApprovalService(tmp_path / "data", project, decision="rejected", feedback="no",
                             delay_seconds=0.2) as svc:
        client = httpx.Client(timeout=90.0, base_url=svc.url, trust_env=False)
        sub = {"Authorization": f"Bearer {svc.token}"}
        first = client.post("/api/requests", json=make_request(project), headers=sub).json()
        assert first["state"] == "pending"
        later = client.get("/api/requests/req_00000001?wait=5", headers=sub).json()
        assert later["state"] == "denied" and later["feedback"] == "no" and "receipt" not in later
    with MockApprovalService(tmp_path / "data", project, require_program_sha256="0" * 64) as svc:
        client = httpx.Client(timeout=90.0, base_url=svc.url, trust_env=False)
        answer = client.post("/api/requests", json=make_request(project),
                             headers={"Authorization": f"Bearer {svc.token}"}).json()
        assert answer["decision"] == "rejected"
        assert answer["feedback"] == "program hash did not match the mock configuration"
