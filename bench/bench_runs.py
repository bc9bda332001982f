"""run_cold (one `clauz3 run` process approved by an operator policy of the real approval service) and
remembered_match (a program matching a remembered approval → automatic decision, over HTTP on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import ROOT, Sample, clean_env, spawn_ui, stop_tree

EMAIL = ROOT / "examples" / "email"
TRUSTED = "tools/email/trusted"


def _project(tmp: Path) -> Path:
    project = tmp / "project"
    shutil.copytree(EMAIL / "tools", project / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(EMAIL / "main.py", project / "main.py")
    return project


# -- run_cold ---------------------------------------------------------------------------------

# An operator policy (03 §9) that approves the tutorial program by entailment: the authority proves
# these clauses as added guarantees on each submitted program before it answers auto_approved.
POLICY = {"version": 1, "imports": {"mail": "tools.email.trusted.contracts"},
          "rules": [{"name": "few-mails", "decision": "auto_approved", "reason": "at most 3 mails to example.com",
                     "when_proven": ["mail.at_most(count=3)", "mail.only(['bob@example.com', 'ann@example.com'])"]}]}
SERVICE_LINE = re.compile(r"^(CLAUZ3_APPROVAL_(?:SERVICE|TOKEN|VERIFY_KEY))=(\S+)$")


def _run_once(project: Path, env: dict[str, str], message: str) -> float:
    # a program the authority has never seen: it proves it and the rule's entailment afresh
    (project / "main.py").write_text((EMAIL / "main.py").read_text().replace("Hi from clauz3", message))
    argv = [sys.executable, "-m", "clauz3", "run", "--no-cache", "main.py"]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or "executed: main" not in done.stdout:
        raise RuntimeError(f"clauz3 run failed (exit {done.returncode}): {done.stderr.strip()[-300:]}")
    if "approval: auto_approved" not in done.stdout or "rule: policy:few-mails" not in done.stdout:
        raise RuntimeError(f"the run was not approved by the policy rule: {done.stdout.strip()[-300:]}")
    return elapsed


def _approval_service(project: Path, home: Path, policy: Path) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """`clauz3 approval-service --policy` on a free loopback port; its printed service URL, submission
    token and verify key (it publishes itself as the project's authority, issue 11 §3)."""
    argv = [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--policy", str(policy),
            "--trusted-root", TRUSTED, "--import-root", "."]
    errors = home.parent / "approval-service.err"
    with open(errors, "w") as err:
        proc = subprocess.Popen(argv, cwd=project, env=clean_env(home), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True)
    assert proc.stdout is not None
    found: dict[str, str] = {}
    deadline = time.monotonic() + 60
    while len(found) < 3 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        match = SERVICE_LINE.match(line.strip())
        if match:
            found[match.group(1)] = match.group(2)
    if len(found) < 3:
        stop_tree(proc)
        raise RuntimeError(f"clauz3 approval-service did not start (exit {proc.poll()}): "
                           f"{errors.read_text().strip()[-300:]}")
    return proc, found


def run_cold(reps: int) -> list[float]:
    """Spawn → exit of `clauz3 run` of the tutorial program, approved by the real `clauz3 approval-service`
    through an operator policy rule whose clauses it proves against the program (its entailment)."""
    with tempfile.TemporaryDirectory(prefix="clauz3-bench-run-") as raw:
        tmp = Path(raw)
        project, home = _project(tmp), tmp / "home"
        home.mkdir(mode=0o700)
        policy = tmp / "policy.json"  # outside the project: agents cannot write it
        policy.write_text(json.dumps(POLICY))
        proc, service = _approval_service(project, home, policy)
        try:
            env = clean_env(home, **service)
            _run_once(project, env, "Warm-up")  # page cache, .pyc files and the authority's warm prover
            return [_run_once(project, env, f"Cold run {i}") for i in range(reps)]
        finally:
            stop_tree(proc)


# -- remembered_match -------------------------------------------------------------------------


def _claims(project: Path, program: str) -> dict[str, Any]:
    """What a worker claims for ``program``: the real prover's guarantees, coverage and proof list (the
    authority proves the program itself and refuses any other claim, issue 11 §5)."""
    path = project / "claims.py"
    path.write_text(program)
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", "--trusted-root", TRUSTED,
                          "--import-root", ".", "claims.py"], cwd=project, capture_output=True, text=True)
    entry = json.loads(out.stdout)["entries"][0]
    keys = ("domain", "status", "missing_required", "missing_recommended")
    return {"guarantees": [o["expression"] for o in entry["obligations"] if o["kind"] == "guarantee"],
            "coverage": [{k: c[k] for k in keys} for c in entry["coverage"]],
            "proofs": [{"name": "main", "conclusion": o["conclusion"], "description": o["description"]}
                       for o in entry["obligations"]]}


def _request(project: Path, rid: str, program: str, claims: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": 1, "kind": "clauz3.run", "request_id": rid, "program": program,
        "program_sha256": hashlib.sha256(program.encode()).hexdigest(), "source_name": "main.py",
        "target": "main", "trusted_roots": [str(project / TRUSTED)], "import_roots": [str(project)],
        **claims,
        "execution_timeout_seconds": 60,
        "sandbox": {"mode": "unavailable", "detail": "benchmark", "extra_read": [], "extra_write": []},
    }


class _Served:
    """The real authority (profiles on) and its HTTP routes under uvicorn on 127.0.0.1, in a thread."""

    def __init__(self, data: Path, project: Path) -> None:
        import uvicorn

        from clauz3.approvals.app import ApprovalHTTP, build_app
        from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
        from clauz3.approvals.cookies import SessionCookies
        from clauz3.approvals.tokens import generate_token

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as the product's listeners do
        self.sock.bind(("127.0.0.1", 0))
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        from clauz3.prover.verify import ProofVerifier

        # The authority's own proof of every request (issue 11 §5), in its warm prover child.
        self.authority = ApprovalAuthority(AuthorityConfig(data_dir=data, project=str(project), profiles=True,
                                                           verify=ProofVerifier()))
        self.token = self.authority.register_conversation(None, [str(project / TRUSTED)], [str(project)])
        self.approver = generate_token()
        http = ApprovalHTTP(self.authority, SessionCookies(data, str(project)), approver_token=self.approver,
                            port=port)
        config = uvicorn.Config(build_app(http), log_level="warning", access_log=False, lifespan="on")
        self.server = uvicorn.Server(config)
        self.server.capture_signals = _no_signals  # type: ignore[method-assign]
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])),
                                       daemon=True, name="bench-authority")

    def __enter__(self) -> _Served:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("approval authority failed to start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        asyncio.run(self.authority.close())  # its prover child too


def _no_signals() -> Any:
    from contextlib import nullcontext

    return nullcontext()


def remembered_match(reps: int) -> list[float]:
    import httpx

    program = (EMAIL / "main.py").read_text()
    with tempfile.TemporaryDirectory(prefix="clauz3-bench-remember-") as raw:
        tmp = Path(raw)
        project, data = _project(tmp), tmp / "data"
        data.mkdir(mode=0o700)
        with _Served(data, project) as svc, httpx.Client(base_url=svc.url, trust_env=False, timeout=30) as client:
            sub = {"Authorization": f"Bearer {svc.token}"}
            claims = _claims(project, program)  # the message literal below changes no claim
            first = client.post("/api/requests", json=_request(project, "req_bench_0000", program, claims),
                                headers=sub)
            if first.status_code != 201 or not first.json().get("profile", {}).get("eligible"):
                raise RuntimeError(f"first request not rememberable: {first.status_code} {first.text[:300]}")
            decided = client.post("/api/requests/req_bench_0000/decision", headers={
                "Authorization": f"Bearer {svc.approver}"}, json={"decision": "approved_once", "remember": True})
            if decided.json().get("decision") != "approved_remember":
                raise RuntimeError(f"remembering failed: {decided.text[:300]}")
            times: list[float] = []
            for i in range(1, max(reps, 20) + 2):
                body = _request(project, f"req_bench_{i:04d}", program.replace("Hi from clauz3", f"Message {i}"),
                                claims)
                start = time.perf_counter()
                answer = client.post("/api/requests", json=body, headers=sub).json()
                while answer.get("state") == "pending":
                    answer = client.get(f"/api/requests/{body['request_id']}?wait=5", headers=sub).json()
                elapsed = time.perf_counter() - start
                if answer.get("decision") != "auto_approved":
                    raise RuntimeError(f"remembered approval did not match: {json.dumps(answer)[:300]}")
                if i > 1:  # the first timed request warms the HTTP connection and caches
                    times.append(elapsed)
            return times


# -- remembered_match on the full path -----------------------------------------------------------

def _epoch(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _run_prompt(message: str) -> str:
    program = (EMAIL / "main.py").read_text().replace("Hi from clauz3", message)
    return f"run this program:\n```python\n{program}```"


async def _remembered_full(reps: int) -> tuple[list[float], list[float]]:
    """On a real `clauz3 ui demo --tutorial` (service with its authority, demo agent, bridge, warm prover,
    workers): one program approved with remember, then each new program with another message is decided
    by the remembered approval. Timed per run from the bridge's own record stamps: the phase
    `submitting_approval` (the worker is about to POST the request) → `executing` (the worker holds the
    authority's decision and has checked and claimed its receipt). Also returned: the authority's own
    created → decided span for the same requests."""
    import httpx
    import websockets

    tmp = Path(tempfile.mkdtemp(prefix="clauz3-bench-remembered-"))
    project = tmp / "project"
    project.mkdir()
    launched = spawn_ui("demo", "--tutorial", home=tmp / "home", cwd=project)
    try:
        async with httpx.AsyncClient(trust_env=False, base_url=launched.base, timeout=30) as client:
            signed = await client.get(launched.link)
            cookie = next(iter(signed.cookies.items()))
            # The page secret the sign-in hands the page (issue 19): a header on the API, the socket's first frame.
            secret = signed.text.split('name="clauz3-page" content="', 1)[1].split('"', 1)[0]
            ws = await websockets.connect(launched.base.replace("http", "ws") + "/api/chat/acp", origin=launched.base,
                                          max_size=None, additional_headers={"Cookie": f"{cookie[0]}={cookie[1]}"})
            await ws.send(json.dumps({"method": "clauz3/hello", "params": {"page": secret}}))

            async def until(pred: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if seen is not None:
                        seen.append(frame)
                    if pred(frame):
                        return frame

            restore = await until(lambda f: f["method"] == "clauz3/restore")
            cid = restore["params"]["state"]["conversation_id"]
            await until(lambda f: f["method"] == "clauz3/state" and f["params"].get("agent_status") == "ready")

            async def prompt(message: str) -> list[dict[str, Any]]:
                seen: list[dict[str, Any]] = []
                await ws.send(json.dumps({"method": "session/prompt",
                                          "params": {"conversation_id": cid, "prompt": _run_prompt(message)}}))
                await until(lambda f: f["method"] == "clauz3/turn_end", seen)
                return seen

            first: list[dict[str, Any]] = []
            await ws.send(json.dumps({"method": "session/prompt",
                                      "params": {"conversation_id": cid, "prompt": _run_prompt("Remember me")}}))
            card = await until(lambda f: f["method"] == "clauz3/approval", first)
            decided = await client.post(f"/api/requests/{card['params']['record']['request_id']}/decision",
                                        json={"decision": "approved_once", "remember": True},
                                        headers={"Origin": launched.base, "X-Clauz3-Page": secret},
                                        cookies=dict([cookie]))
            if decided.status_code != 200 or decided.json().get("decision") != "approved_remember":
                raise RuntimeError(f"remembering failed: {decided.status_code} {decided.text[:300]}")
            await until(lambda f: f["method"] == "clauz3/turn_end", first)
            full: list[float] = []
            authority: list[float] = []
            for i in range(max(reps, 10) + 1):
                seen = await prompt(f"Remembered {i}")
                stamps: dict[str, str] = {}
                for frame in seen:
                    if frame["method"] == "clauz3/state":
                        for run in frame["params"].get("runs", []):
                            if run.get("phase") in ("submitting_approval", "awaiting_approval", "executing"):
                                stamps.setdefault(run["phase"], run["updated_at"])
                records = [f["params"]["record"] for f in seen if f["method"] == "clauz3/approval"]
                record = records[-1] if records else {}
                if record.get("decision") != "auto_approved" or "awaiting_approval" in stamps:
                    raise RuntimeError(f"run {i} was not decided by the remembered approval: "
                                       f"{record.get('decision')} {sorted(stamps)}")
                if "submitting_approval" not in stamps or "executing" not in stamps:
                    raise RuntimeError(f"run {i}: the page never saw phases {sorted(stamps)}")
                if i:  # the first warms the worker's and the authority's caches
                    full.append(_epoch(stamps["executing"]) - _epoch(stamps["submitting_approval"]))
                    authority.append(_epoch(record["decided_at"]) - _epoch(record["created_at"]))
            await ws.close()
            return full, authority
    finally:
        stop_tree(launched.proc)
        shutil.rmtree(tmp, ignore_errors=True)


def remembered_match_full(reps: int) -> tuple[list[float], list[float]]:
    return asyncio.run(_remembered_full(reps))


def collect(reps: int) -> list[Sample]:
    samples = [Sample("run_cold", run_cold(reps), target=1.5)]
    full, authority = remembered_match_full(reps)
    return [*samples, Sample("remembered_match", full, target=0.05),
            # no target: the same requests' created → decided span inside the authority (its own proof,
            # the profile match and the receipt), and the authority alone answering over HTTP
            Sample("remembered_match_authority", authority),
            Sample("remembered_match_http", remembered_match(reps))]
