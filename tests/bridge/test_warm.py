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
