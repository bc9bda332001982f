"""``clauz3 run`` end to end (03 §17.1): exit codes 0/1/2/3, CLI-1 credential rules, CLI-2 output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from clauz3.approvals.keys import SigningKey
from clauz3.approvals.mock import MockApprovalService

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
from proc_tree import alive, children

REPO = Path(__file__).resolve().parents[2]
EMAIL_TOOLS = REPO / "examples" / "email" / "tools" / "email"
MAIN = (REPO / "examples" / "email" / "main.py").read_text()
TWO_SENDS = MAIN.replace('    send_email("bob@example.com", "Hi from clauz3")',
                         '    send_email("bob@example.com", "a")\n    send_email("bob@example.com", "b")')


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(EMAIL_TOOLS, proj / "tools" / "email", ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "main.py").write_text(MAIN)
    (proj / "two.py").write_text(TWO_SENDS)
    return proj


@pytest.fixture
def data(tmp_path: Path) -> Path:
    home = tmp_path / "data"
    home.mkdir(mode=0o700)
    return home


def clauz3_run(project: Path, data: Path, *args: str, env: dict[str, str] | None = None,
               stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    base.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0")
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/email/trusted", *args],
                          cwd=project, env=base, capture_output=True, text=True, timeout=120, input=stdin)


def svc_env(svc: Any) -> dict[str, str]:
    return {"CLAUZ3_APPROVAL_SERVICE": svc.url, "CLAUZ3_APPROVAL_TOKEN": svc.token,
            "CLAUZ3_APPROVAL_VERIFY_KEY": svc.verify_key.text}


def test_approved_run_prints_cli2_lines_and_exits_0(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, "main.py", env=svc_env(svc))
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert lines[0] == 'main: proved precondition send_email at line 13: "@" in addr'
        approval = next(i for i, x in enumerate(lines) if x.startswith("approval: approved_once receipt="))
        assert lines[approval + 1].startswith("sandbox: ")
        assert lines[-3:] == ["executed: main", "effects: 1",
                              '  tools.email.trusted.effects.send_email(addr="bob@example.com", msg="Hi from clauz3")']
        assert svc.token not in out.stdout + out.stderr
        assert len(svc.requests) == 1


def test_automatic_decision_prints_rule_line(project: Path, data: Path) -> None:
    with MockApprovalService(data, project, decision="auto_approved", feedback="fine") as svc:
        out = clauz3_run(project, data, "-", env=svc_env(svc), stdin=MAIN)
    assert out.returncode == 0, out.stderr
    assert "rule: policy:mock (fine)" in out.stdout.splitlines()


def test_proof_failure_exits_1_without_request(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, "two.py", env=svc_env(svc))
        assert out.returncode == 1
        assert "main: violated guarantee email.at_most(count=1)" in out.stdout
        assert out.stderr.startswith("error: ")
        assert svc.requests == []


def test_denial_exits_3_with_feedback(project: Path, data: Path) -> None:
    with MockApprovalService(data, project, decision="rejected_contract", feedback="too broad") as svc:
        out = clauz3_run(project, data, "main.py", env=svc_env(svc))
    assert out.returncode == 3
    assert "approval: rejected_contract" in out.stdout.splitlines()
    assert "feedback: too broad" in out.stdout.splitlines()
    assert "executed:" not in out.stdout


def test_retry_with_request_id_returns_recorded_outcome(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        first = clauz3_run(project, data, "main.py", "--request-id", "req_cli_0001", env=svc_env(svc))
        again = clauz3_run(project, data, "main.py", "--request-id", "req_cli_0001", env=svc_env(svc))
        other = clauz3_run(project, data, "two.py", "--request-id", "req_cli_0001", env=svc_env(svc))
        assert first.returncode == again.returncode == 0
        assert "recorded: req_cli_0001 completed" in again.stdout
        assert other.returncode == 2 and "already used for another program" in other.stderr
        assert len(svc.requests) == 1


def test_configuration_errors_exit_2_before_contact(project: Path, data: Path, tmp_path: Path) -> None:
    (project / ".clauz3").mkdir()
    (project / ".clauz3" / "approval-service.json").write_text(json.dumps({"url": "http://127.0.0.1:1"}))
    none = clauz3_run(project, data, "main.py")  # no service of the project runs (issue 11 §3: none to trust)
    assert none.returncode == 2
    assert none.stderr.strip() == "error: no approval service configured; set CLAUZ3_APPROVAL_SERVICE"
    nokey = clauz3_run(project, data, "main.py", env={"CLAUZ3_APPROVAL_SERVICE": "http://127.0.0.1:9",
                                                      "CLAUZ3_APPROVAL_TOKEN": "t" * 43, "CLAUZ3_APPROVAL_VERIFY_KEY": ""})
    assert nokey.returncode == 2 and "no approval verifying key" in nokey.stderr
    with MockApprovalService(data, project) as svc:
        inside = project / "token"
        inside.write_text(svc.token)
        inside.chmod(0o600)
        env = {**svc_env(svc)}
        del env["CLAUZ3_APPROVAL_TOKEN"]
        planted = clauz3_run(project, data, "main.py", "--token-file", str(inside), env=env)
        assert planted.returncode == 2 and "inside the workspace" in planted.stderr
        far = clauz3_run(project, data, "main.py", env={**svc_env(svc), "CLAUZ3_APPROVAL_SERVICE": "http://10.1.2.3:80"})
        assert far.returncode == 2 and "non-loopback" in far.stderr
        budget = clauz3_run(project, data, "main.py", "--step-budget", "0", env=svc_env(svc))
        assert budget.returncode == 2 and "--step-budget" in budget.stderr
        assert svc.requests == []


def test_service_signing_with_another_key_is_refused(project: Path, data: Path) -> None:
    marker_free = MAIN
    with MockApprovalService(data, project, signing_key=SigningKey.generate()) as svc:
        env = {**svc_env(svc), "CLAUZ3_APPROVAL_VERIFY_KEY": SigningKey.generate().verify_key.text}
        out = clauz3_run(project, data, "-", env=env, stdin=marker_free)
    assert out.returncode == 2
    assert "executed:" not in out.stdout and "approval: approved_once" not in out.stdout
    assert "another key" in out.stderr


class _Stub(BaseHTTPRequestHandler):
    """A broken authority answering every request with ``"decision": "approved"`` (not in the vocabulary)."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}") if length else {}
        doc = {"request_id": body.get("request_id", "x"), "state": "approved", "decision": "approved",
               "expires_at": "2099-01-01T00:00:00.000000Z", "receipt": "c3r1.a.b"}
        data = json.dumps(doc).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = _answer
    do_GET = _answer

    def log_message(self, *args: object) -> None:
        pass


def test_unknown_decision_from_a_stub_exits_2(project: Path, data: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        env = {"CLAUZ3_APPROVAL_SERVICE": f"http://127.0.0.1:{server.server_address[1]}",
               "CLAUZ3_APPROVAL_TOKEN": "t" * 43, "CLAUZ3_APPROVAL_VERIFY_KEY": SigningKey.generate().verify_key.text}
        # The stub stands for the project's own (broken) authority, so it publishes itself as one does.
        from clauz3.approvals.anchor import MOCK, AnchorRecord, write_anchor

        write_anchor(data, AnchorRecord(MOCK, env["CLAUZ3_APPROVAL_SERVICE"], env["CLAUZ3_APPROVAL_VERIFY_KEY"],
                                        os.path.realpath(project), None, None, os.getpid()))
        out = clauz3_run(project, data, "main.py", env=env)
    finally:
        server.shutdown()
    assert out.returncode == 2
    assert "approval: " not in out.stdout
    assert "unknown decision" in out.stderr


def test_killed_cli_takes_its_worker_group_down(project: Path, data: Path) -> None:
    import signal
    import time

    with MockApprovalService(data, project, delay_seconds=60) as svc:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        env.update(svc_env(svc), CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0")
        cli = subprocess.Popen([sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/email/trusted",
                                "main.py"], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            for _ in range(1200):
                if svc.requests:
                    break
                time.sleep(0.05)
            assert svc.requests, "the run never reached the approval request"
            workers = children(cli.pid)
            assert workers
            cli.kill()
            cli.wait()
            for _ in range(200):
                if not any(alive(w) for w in workers):
                    break
                time.sleep(0.05)
            assert not any(alive(w) for w in workers)
            from clauz3.runs.client import ApprovalClient

            # Close the orphaned long-poll so the in-process service stops at once.
            ApprovalClient(svc.url, svc.token).cancel(svc.requests[0]["request_id"])
        finally:
            if cli.poll() is None:
                cli.send_signal(signal.SIGKILL)
            cli.communicate()
