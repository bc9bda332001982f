"""Issue 11 §2: what runs is bound, by content, to what was proved and approved.

Each test performs the attack on the real supervisor, worker, prover and (mock) authority; a
concurrent writer is simulated by a test-only trusted library whose import does the swap, so the
swap lands deterministically in the window between the worker's first and second look at a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from clauz3.approvals.keys import SigningKey
from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.supervisor import RunConfig, Supervisor

SLOW_TOOLS = Path(__file__).resolve().parents[1] / "runs" / "fixtures" / "slowlib" / "tools" / "slow"

PROGRAM = '''
import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import mark


@clauz3.guarantee(slow.marks_at_most(1))
def main() -> None:
    mark({path!r})
'''

# Written into the slow library's __init__.py: on import (the worker's layer load, which happens after
# the program was hashed and before it is parsed) it replaces the program file named in swap.json.
SWAPPER = '''"""Test-only trusted library; its import plays a concurrent writer."""
import json as _json
import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
_plan = _os.path.join(_here, "swap.json")
if _os.path.exists(_plan):
    with open(_plan) as _fh:
        _doc = _json.load(_fh)
    with open(_doc["path"], "w") as _fh:
        _fh.write(_doc["text"])
'''




def _config(project: Path, data: Path, svc: MockApprovalService, source: str, **kw: object) -> RunConfig:
    base: dict[str, object] = dict(
        source=source, project=project, trusted_roots=[str(project / "tools" / "slow" / "trusted")],
        import_roots=[str(project)], service_url=svc.url, submission_token=svc.token,
        verify_key=svc.verify_key.text, data_dir=data, use_cache=False,
    )
    base.update(kw)
    return RunConfig(**base)  # type: ignore[arg-type]


def test_a_program_swapped_between_hash_and_parse_never_runs_under_the_first_ones_approval(
        project: Path, data: Path, tmp_path: Path) -> None:
    approved_mark, swapped_mark = project / "approved.txt", project / "swapped.txt"  # inside the sandbox
    approved = PROGRAM.format(path=str(approved_mark))
    swapped = PROGRAM.format(path=str(swapped_mark))
    program_file = project / "main.py"
    program_file.write_text(approved, encoding="utf-8")
    (project / "tools" / "slow" / "trusted" / "__init__.py").write_text(SWAPPER, encoding="utf-8")
    (project / "tools" / "slow" / "trusted" / "swap.json").write_text(
        json.dumps({"path": str(program_file), "text": swapped}), encoding="utf-8")
    digest = hashlib.sha256(approved.encode("utf-8")).hexdigest()
    # The authority approves exactly the first program (as a person reading its card would).
    with MockApprovalService(data, project, require_program_sha256=digest) as svc:
        result = Supervisor(_config(project, data, svc, approved, source_name=str(program_file))).run()
        submitted = [r["program_sha256"] for r in svc.requests]
    assert program_file.read_text(encoding="utf-8") == swapped  # the attack really happened mid-run
    assert not swapped_mark.exists(), "the swapped program ran under the approval of the first one"
    assert submitted == [digest]
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    assert approved_mark.exists()  # what ran is exactly what was hashed, proved and approved


# ---------------------------------------------------------------------------------- receipts

class _Replay(BaseHTTPRequestHandler):
    """An attacker's 'authority' that answers every request with a receipt captured elsewhere."""

    receipt = ""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}") if length else {}
        rid = body.get("request_id") or self.path.rstrip("/").split("/")[-1].split("?")[0]
        doc = {"request_id": rid, "state": "approved", "decision": "approved_once",
               "expires_at": "2099-01-01T00:00:00.000000Z", "receipt": self.receipt}
        data = json.dumps(doc).encode()
        self.send_response(201 if self.command == "POST" else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = _answer
    do_GET = _answer

    def log_message(self, *args: object) -> None:
        pass


def _replaying(receipt: str) -> tuple[ThreadingHTTPServer, str]:
    handler = type("Replay", (_Replay,), {"receipt": receipt})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_a_receipt_never_runs_again_under_another_clauz3_home(project: Path, data: Path, tmp_path: Path) -> None:
    key = SigningKey.generate()
    marker = project / "effect.txt"
    source = PROGRAM.format(path=str(marker))
    with MockApprovalService(data, project, signing_key=key) as svc:
        first = Supervisor(_config(project, data, svc, source, request_id="req_replay_0001")).run()
        assert svc.authority is not None
        [record] = svc.authority.list()
        receipt = record.receipt
    assert first.record.phase == "completed" and marker.exists() and receipt
    marker.unlink()
    other = tmp_path / "other-home"
    other.mkdir(mode=0o700)
    server, url = _replaying(receipt)
    try:
        again = Supervisor(RunConfig(
            source=source, project=project, trusted_roots=[str(project / "tools" / "slow" / "trusted")],
            import_roots=[str(project)], service_url=url, submission_token="t" * 43,
            verify_key=key.verify_key.text, data_dir=other, use_cache=False, request_id="req_replay_0001")).run()
    finally:
        server.shutdown()
    assert again.record.reason == "receipt_not_bound", (again.record.reason, again.record.message)
    assert not marker.exists(), "the receipt ran a second time under another CLAUZ3_HOME"


def test_a_receipt_for_one_library_content_never_runs_against_another(
        project: Path, data: Path) -> None:
    from clauz3.approvals.layers import layer_sha256
    from clauz3.approvals.receipts import consent_sha256, data_sha256, issue_receipt, program_sha256
    from clauz3.storage.paths import project_sha256

    key = SigningKey.generate()
    trusted, imports = [str(project / "tools" / "slow" / "trusted")], [str(project)]
    marker = project / "effect.txt"
    source = PROGRAM.format(path=str(marker))
    approved_layer = layer_sha256(trusted, imports)  # the content the card was built from
    assert approved_layer is not None
    with MockApprovalService(data, project, signing_key=key) as svc:  # the guarantees and coverage of a real run
        Supervisor(_config(project, data, svc, source, request_id="req_layer_0000")).run()
        submitted = svc.requests[0]
    marker.unlink()

    def receipt_for(rid: str) -> str:
        text, _ = issue_receipt(
            key, request_id=rid, program_sha256=program_sha256(source),
            consent_sha256=consent_sha256(submitted["coverage"], submitted["guarantees"], "main"),
            decision="approved_once", workspace_generation=None, project_sha256=project_sha256(project),
            layer_sha256=approved_layer, data_sha256=data_sha256(data))
        return text

    def replay(rid: str) -> object:
        server, url = _replaying(receipt_for(rid))
        try:
            return Supervisor(RunConfig(
                source=source, project=project, trusted_roots=trusted, import_roots=imports, service_url=url,
                submission_token="t" * 43, verify_key=key.verify_key.text, data_dir=data, use_cache=False,
                request_id=rid)).run()
        finally:
            server.shutdown()

    control = replay("req_layer_0001")  # the approved content: the receipt binds and the run executes
    assert control.record.phase == "completed", (control.record.reason, control.record.message)
    assert marker.exists()
    marker.unlink()
    # Same size, same mtime, other bytes: `mark` now writes its parent's id.
    effects = project / "tools" / "slow" / "trusted" / "effects.py"
    before = effects.stat()
    text = effects.read_text()
    edited = text.replace("fh.write(str(os.getpid()))", "fh.write(str(os.getppid()))").replace(
        "holding its own process id.", "holding its own process id")
    assert edited != text and len(edited.encode()) == len(text.encode())
    effects.write_text(edited)
    os.utime(effects, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (effects.stat().st_size, effects.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    attack = replay("req_layer_0002")
    assert attack.record.reason == "receipt_not_bound", (attack.record.reason, attack.record.message)
    assert not marker.exists(), "a receipt for one library content ran against another"


# -------------------------------------------------------------------------- symlinked import root

RETARGET = '''"""Test-only trusted library A; importing it retargets the import root link to library B."""
import json as _json
import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
with open(_os.path.join(_here, "retarget.json")) as _fh:
    _doc = _json.load(_fh)
_tmp = _doc["link"] + ".tmp"
_os.symlink(_doc["to"], _tmp)
_os.replace(_tmp, _doc["link"])
with open(_doc["log"], "a") as _fh:
    _fh.write("retargeted\\n")
'''

BACK = '''
import json as _json
import os as _os

with open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "back.json")) as _fh:
    _doc = _json.load(_fh)
_tmp = _doc["link"] + ".tmp"
_os.symlink(_doc["to"], _tmp)
_os.replace(_tmp, _doc["link"])  # and back to A, so the request's roots still resolve to A
'''


def test_an_import_root_link_retargeted_while_the_worker_imports_never_runs_the_other_library(
        project: Path, data: Path, tmp_path: Path) -> None:
    root_a, root_b, link = project / "rootA", project / "rootB", project / "lib"
    for root in (root_a, root_b):
        shutil.copytree(SLOW_TOOLS, root / "tools" / "slow", ignore=shutil.ignore_patterns("__pycache__"))
    log = tmp_path / "retarget.log"
    trusted_a = root_a / "tools" / "slow" / "trusted"
    trusted_b = root_b / "tools" / "slow" / "trusted"
    (trusted_a / "__init__.py").write_text(RETARGET)
    (trusted_a / "retarget.json").write_text(json.dumps({"link": str(link), "to": str(root_b), "log": str(log)}))
    effects_b = trusted_b / "effects.py"
    effects_b.write_text(effects_b.read_text().replace("with open(path, \"w\") as fh:",
                                                      "with open(path + \".B\", \"w\") as fh:") + BACK)
    (trusted_b / "back.json").write_text(json.dumps({"link": str(link), "to": str(root_a)}))
    os.symlink(root_a, link)
    marker = project / "effect.txt"
    with MockApprovalService(data, project) as svc:
        result = Supervisor(_config(project, data, svc, PROGRAM.format(path=str(marker)),
                                    trusted_roots=[str(link / "tools" / "slow" / "trusted")],
                                    import_roots=[str(link)])).run()
    assert log.exists(), "the retargeting import never ran"  # the attack happened
    assert not Path(str(marker) + ".B").exists(), "library B ran while the request named library A"
    # Either the copy the worker took (A) ran, or the mismatch was caught: by the authority (the request
    # names B's bytes while it shows A) or by the worker (the receipt names other bytes).
    outcome = (result.record.phase, result.record.reason)
    message = result.record.message or ""
    assert (outcome == ("completed", None) and marker.exists()) or outcome[1] == "receipt_not_bound" \
        or (outcome[0] == "refused" and "layer_changed" in message), (outcome, message)


# ------------------------------------------------------------------- remembered approvals

def test_a_same_size_edit_with_its_mtime_restored_ends_a_remembered_approval(
        project: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys
    import time

    import httpx

    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0")
    trusted = project / "tools" / "slow" / "trusted"
    service = subprocess.Popen(
        [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--profiles", "--project", str(project),
         "--trusted-root", str(trusted), "--import-root", str(project)],
        cwd=project, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        assert service.stdout is not None
        banner: dict[str, str] = {}
        approver = ""
        while not approver:
            line = service.stdout.readline()
            assert line, service.stderr.read() if service.stderr else ""
            if line.startswith("Approver UI (keep private): "):
                approver = line.strip().split("key=", 1)[1]
            elif "=" in line:
                name, value = line.strip().split("=", 1)
                banner[name] = value
        client = httpx.Client(base_url=banner["CLAUZ3_APPROVAL_SERVICE"], trust_env=False, timeout=30)
        approve = {"Authorization": f"Bearer {approver}"}

        def run(rid: str, body: str, decide: bool) -> object:
            config = RunConfig(
                source=PROGRAM.replace("    mark({path!r})\n", body), project=project,
                trusted_roots=[str(trusted)], import_roots=[str(project)],
                service_url=banner["CLAUZ3_APPROVAL_SERVICE"], submission_token=banner["CLAUZ3_APPROVAL_TOKEN"],
                verify_key=banner["CLAUZ3_APPROVAL_VERIFY_KEY"], data_dir=data, use_cache=False, request_id=rid,
                approval_timeout_seconds=3)
            out: list[object] = []
            thread = threading.Thread(target=lambda: out.append(Supervisor(config).run()))
            thread.start()
            if decide:  # the person approves and remembers, once the card is pending
                for _ in range(600):
                    got = client.get(f"/api/requests/{rid}", headers=approve)
                    if got.status_code == 200 and got.json().get("state") == "pending":
                        break
                    time.sleep(0.05)
                answer = client.post(f"/api/requests/{rid}/decision", headers=approve,
                                     json={"decision": "approved_once", "remember": True})
                assert answer.json().get("decision") == "approved_remember", answer.text
            thread.join(120)
            return out[0]

        first = run("req_remember_01", "    mark('one.txt')\n", decide=True)
        assert first.record.phase == "completed", (first.record.reason, first.record.message)
        again = run("req_remember_02", "    mark('two.txt')\n", decide=False)
        assert again.record.approval["decided_by"] == "profile"  # the remembered approval really matches
        # The library's guarantee becomes vacuous in the same number of bytes, mtime restored.
        contracts = trusted / "contracts.py"
        before = contracts.stat()
        text = contracts.read_text()
        edited = text.replace("return effect(mark).count() <= count", "return effect(mark).count() >= -count") \
            .replace("slow library's effects.", "slow library's effects")
        assert edited != text and len(edited.encode()) == len(text.encode())
        contracts.write_text(edited)
        os.utime(contracts, ns=(before.st_atime_ns, before.st_mtime_ns))
        three = run("req_remember_03", "    mark('a.txt')\n    mark('b.txt')\n    mark('c.txt')\n", decide=False)
        assert not (project / "a.txt").exists(), "a remembered approval ran a program its library no longer limits"
        assert three.record.phase != "completed", three.record
        assert (three.record.approval or {}).get("decided_by") != "profile"
    finally:
        service.terminate()
        service.wait(timeout=15)
        for stream in (service.stdout, service.stderr):
            if stream is not None:
                stream.close()


async def test_the_authority_refuses_a_request_whose_loaded_layer_is_not_the_one_it_shows(
        project: Path, data: Path) -> None:
    import asyncio

    from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
    from clauz3.approvals.errors import ApprovalError
    from clauz3.approvals.requests import parse_request

    source = PROGRAM.format(path=str(project / "effect.txt"))
    with MockApprovalService(data, project, decision="rejected") as svc:  # a real worker's request
        await asyncio.to_thread(Supervisor(_config(project, data, svc, source)).run)
        [request] = svc.requests
    assert isinstance(request.get("layer_sha256"), str)  # the worker names the bytes it loaded
    trusted, imports = [str(project / "tools" / "slow" / "trusted")], [str(project)]
    authority = ApprovalAuthority(AuthorityConfig(data_dir=data, project=str(project), signing_key=SigningKey.generate()))
    principal = authority.submitter_for(authority.register_conversation(None, trusted, imports))
    assert principal is not None
    try:
        with pytest.raises(ApprovalError) as refused:
            await authority.submit(principal, parse_request(
                {**request, "request_id": "req_layer_x001", "layer_sha256": "0" * 64}))
        assert refused.value.code == "layer_changed"
        created, record = await authority.submit(principal, parse_request({**request, "request_id": "req_layer_x002"}))
        assert created and record.layer_sha256 == request["layer_sha256"]
    finally:
        await authority.close()


def test_a_planted_bytecode_file_matching_the_sources_mtime_and_size_never_runs(
        project: Path, data: Path) -> None:
    import importlib._bootstrap_external as external
    import importlib.util

    effects = project / "tools" / "slow" / "trusted" / "effects.py"
    st = effects.stat()
    evil = effects.read_text().replace('with open(path, "w") as fh:', 'with open(path + ".pyc-ran", "w") as fh:')
    code = compile(evil, str(effects), "exec")
    # What Python's import checks for a timestamp .pyc: the source's mtime and size, not its bytes.
    pyc = external._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)
    cached = Path(importlib.util.cache_from_source(str(effects)))
    cached.parent.mkdir(exist_ok=True)
    cached.write_bytes(pyc)
    marker = project / "effect.txt"
    with MockApprovalService(data, project) as svc:
        result = Supervisor(_config(project, data, svc, PROGRAM.format(path=str(marker)))).run()
    assert not Path(str(marker) + ".pyc-ran").exists(), "a planted .pyc ran instead of the approved source"
    assert result.record.phase == "completed" and marker.exists(), (result.record.reason,
                                                                        result.record.message)
