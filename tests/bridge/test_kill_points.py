"""Issue 3 acceptance 4: `kill -9` of the bridge during a proof and during an execution leaves no worker
alive after 2 s; an interrupted execution is recorded `uncertain` and is not re-run when the same
request id is retried. (The approval-wait point is tests/bridge/test_lifetime.py.)"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from proc_tree import wait_gone

from clauz3.approvals.mock import MockApprovalService

from .conftest import credentials
from .fakehost import FakeHost
from .rawbridge import RawBridge

SLOWLIB = Path(__file__).resolve().parents[1] / "runs" / "fixtures" / "slowlib" / "tools" / "slow"

# Cubes: z3 has no quick answer, so the proof phase lasts until the obligation timeout.
HARD = '''import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import pause


def cube(n: int) -> int:
    return n * n * n


@clauz3.guarantee(slow.pauses_at_most(1))
def main(a: int = 3, b: int = 4, c: int = 5) -> None:
    assert a <= 0 or b <= 0 or c <= 0 or cube(a) + cube(b) != cube(c) or a * b * c > 1000000007
    pause(0)
'''

SLEEPY = '''import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import mark, pause


@clauz3.guarantee(slow.pauses_at_most(1))
@clauz3.guarantee(slow.marks_at_most(1))
def main() -> None:
    pause(20)
    mark("MARKER")
'''


@pytest.fixture
def slow_project(project: Path) -> Path:
    shutil.copytree(SLOWLIB, project / "tools" / "slow", ignore=shutil.ignore_patterns("__pycache__"))
    return project


@pytest.fixture
def approving(data: Path, slow_project: Path) -> Iterator[MockApprovalService]:
    with MockApprovalService(data, slow_project) as service:  # approves at once
        yield service


@pytest.fixture
def approving_host(approving: MockApprovalService, tmp_path: Path) -> Iterator[FakeHost]:
    with FakeHost(credentials(approving, tmp_path)) as fake:
        yield fake


def extra(project: Path) -> list[str]:
    return ["--trusted-root", str(project / "tools" / "slow" / "trusted"), "--no-warm"]


def phase_seen(host: FakeHost, request_id: str, phase: str) -> bool:
    return any(r["request_id"] == request_id and r["phase"] == phase for r in host.records)


def kill_and_check(bridge: RawBridge) -> None:
    children = bridge.descendants()
    assert children, "the run's worker should be running"
    os.kill(bridge.proc.pid, signal.SIGKILL)
    bridge.proc.wait(timeout=90)
    wait_gone(children, "the run's worker after the bridge's kill -9")


def test_kill_9_during_a_proof_leaves_no_worker(slow_project: Path, approving_host: FakeHost,
                                                approving: MockApprovalService) -> None:
    bridge = RawBridge(slow_project, approving_host, extra=extra(slow_project))
    try:
        bridge.initialize()
        bridge.call("run", {"source": HARD, "request_id": "req_killproof_1"})
        assert approving_host.wait_for(lambda: phase_seen(approving_host, "req_killproof_1", "proving"))
        kill_and_check(bridge)
        assert approving.requests == []  # never reached the approval step
    finally:
        bridge.close()


def test_kill_9_during_execution_is_uncertain_and_never_rerun(slow_project: Path, approving_host: FakeHost,
                                                              approving: MockApprovalService) -> None:
    marker = slow_project / "MARKER"
    bridge = RawBridge(slow_project, approving_host, extra=extra(slow_project))
    try:
        bridge.initialize()
        bridge.call("run", {"source": SLEEPY, "request_id": "req_killexec_01"})
        assert approving_host.wait_for(lambda: phase_seen(approving_host, "req_killexec_01", "executing"),
                                       timeout=60)
        kill_and_check(bridge)
    finally:
        bridge.close()
    assert not marker.exists()
    retry = RawBridge(slow_project, approving_host, ticket=approving_host.mint(), extra=extra(slow_project))
    try:
        retry.initialize()
        rid = retry.call("run", {"source": SLEEPY, "request_id": "req_killexec_01"})
        answer = retry.response(rid, timeout=60)
        record = answer["result"]["structuredContent"]
        assert record["phase"] == "uncertain", record
        assert record["reason"] == "worker_lost"
    finally:
        retry.close()
    time.sleep(0.5)
    assert not marker.exists()
    assert len(approving.requests) == 1
