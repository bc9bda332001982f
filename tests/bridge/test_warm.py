"""The warm prover (01 WARM-1/2, 00 DEC-7): forked workers give exactly the cold workers' outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from clauz3.approvals.mock import MockApprovalService

from .conftest import EMAIL_PROGRAM, REPO

PRINTING = EMAIL_PROGRAM.replace('    send_email("bob@example.com", "Hi from clauz3")',
                                 '    print("sending")\n    send_email("bob@example.com", "Hi from clauz3")')
REFUTED = EMAIL_PROGRAM.replace('send_email("bob@example.com", "Hi from clauz3")',
                                'send_email("eve@example.com", "Hi from clauz3")')


def test_warm_and_cold_outputs_are_identical(project: Path, data: Path, svc: MockApprovalService) -> None:
    job = {"project": str(project), "trusted_roots": [str(project / "tools" / "email" / "trusted")],
           "import_roots": [str(project / ".clauz3"), str(project)], "url": svc.url, "token": svc.token,
           "key": svc.verify_key.text, "data": str(data), "programs": [PRINTING, REFUTED]}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-P", "-m", "tests.bridge.warm_probe"], input=json.dumps(job),
                          capture_output=True, text=True, timeout=240, cwd=str(REPO), env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    printing, refuted = out["pairs"]
    assert printing["warm_used"] and refuted["warm_used"]
    assert printing["warm"] == printing["cold"]
    assert printing["warm"]["record"]["phase"] == "completed" and printing["warm"]["stdout"] == "sending\n"
    assert refuted["warm"] == refuted["cold"]
    assert refuted["warm"]["record"]["reason"] == "proof_failed"
    assert out["changed_used_warm"] is False and out["changed_phase"] == "completed"
    assert out["replaced"] and out["stopped"]


def test_reap_orphans_goes_past_an_exited_warm_process(tmp_path: Path) -> None:
    """The warm process exiting first must not leave the dead workers after it as zombies."""
    from clauz3.bridge.warm import WarmProver

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child of its own, so the reaping touches none of pytest's children
        code = 1
        try:
            os.close(read_fd)
            warm = WarmProver(tmp_path, [], [])
            warm._proc = subprocess.Popen([sys.executable, "-c", ""])  # the oldest child: waitid sees it first
            os.waitid(os.P_PID, warm._proc.pid, os.WEXITED | os.WNOWAIT)
            workers = []
            for _ in range(3):
                child = os.fork()
                if child == 0:
                    os._exit(0)
                os.waitid(os.P_PID, child, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
                workers.append(child)
            warm._reap_orphans()
            zombies = []
            for child in workers:
                try:
                    os.waitpid(child, os.WNOHANG)
                    zombies.append(child)  # still ours to reap: _reap_orphans stopped early
                except ChildProcessError:
                    pass
            result = {"warm_returncode": warm._proc.returncode, "zombies": zombies}
            with os.fdopen(write_fd, "w") as fh:
                fh.write(json.dumps(result))
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd) as fh:
        text = fh.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, text
    result = json.loads(text)
    assert result["warm_returncode"] == 0  # reaped through its Popen, status kept
    assert result["zombies"] == []
