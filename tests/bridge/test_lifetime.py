"""The lifetime socket from the bridge's side (03 LIFE-1, CRED-4; 00 DEC-5)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from proc_tree import alive, wait_gone

from clauz3.approvals.mock import MockApprovalService

from .conftest import EMAIL_PROGRAM, bridge_args, bridge_env, credentials
from .fakehost import FakeHost
from .rawbridge import RawBridge


@pytest.fixture
def slow_svc(data: Path, project: Path) -> Iterator[MockApprovalService]:
    with MockApprovalService(data, project, delay_seconds=60) as service:  # stays pending for the test
        yield service


@pytest.fixture
def slow_host(slow_svc: MockApprovalService, tmp_path: Path) -> Iterator[FakeHost]:
    with FakeHost(credentials(slow_svc, tmp_path)) as fake:
        yield fake


def _withdraw(svc: MockApprovalService, request_id: str) -> None:
    """End the orphaned request's long-poll, so the service stops at once (the worker is gone)."""
    from clauz3.runs.client import ApprovalClient

    try:
        ApprovalClient(svc.url, svc.token, timeout=5).cancel(request_id)
    except Exception:
        pass


def _awaiting(host: FakeHost, request_id: str) -> bool:
    return any(r["request_id"] == request_id and r["phase"] == "awaiting_approval" for r in host.records)


def test_wrong_ticket_gets_no_credentials_and_exits_2(project: Path, host: FakeHost) -> None:
    proc = subprocess.run([sys.executable, *bridge_args(project)], env=bridge_env(host, "wrong-" + "x" * 40),
                          cwd=str(project), stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert "refused the bridge ticket" in proc.stderr.decode()
    assert host.uses == 0 and host.refused == 1


def test_second_handshake_with_one_ticket_is_refused(project: Path, host: FakeHost) -> None:
    """Issue 11 §5: a ticket buys one set of credentials, here as in the real host (one start, one bridge)."""
    first = RawBridge(project, host)
    try:
        assert host.wait_for(lambda: host.uses == 1, 60), "the first bridge's handshake within 60 s"
        second = subprocess.run([sys.executable, *bridge_args(project)], env=bridge_env(host), cwd=str(project),
                                stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        assert second.returncode == 2 and host.refused == 1, second.stderr
        assert "refused the bridge ticket" in second.stderr.decode()
        assert first.proc.poll() is None
        again = RawBridge(project, host, ticket=host.mint())  # a fresh start's ticket works
        try:
            assert host.wait_for(lambda: host.uses == 2, 60), "the freshly minted ticket's handshake within 60 s"
        finally:
            again.close()
    finally:
        first.close()


def test_cancel_run_from_the_host_and_unknown_ops(project: Path, slow_host: FakeHost,
                                                  slow_svc: MockApprovalService) -> None:
    bridge = RawBridge(project, slow_host)
    try:
        bridge.initialize()
        first = bridge.call("run", {"source": EMAIL_PROGRAM, "request_id": "req_cancel_0001"})
        assert slow_host.wait_for(lambda: _awaiting(slow_host, "req_cancel_0001"))
        # MCP-6: one active run per bridge; no record is created for the refused one.
        second = bridge.response(bridge.call("run", {"source": EMAIL_PROGRAM, "request_id": "req_second_001"}))
        rec = second["result"]["structuredContent"]
        assert (rec["phase"], rec["reason"], rec["exit_code"]) == ("refused", "run_active", 2)
        assert "req_cancel_0001" in rec["message"]
        slow_host.send({"op": "no_such_op", "request_id": "req_cancel_0001"})
        slow_host.send("this is not json")
        slow_host.send({"op": "cancel_run", "request_id": "req_other_0001"})
        status = bridge.response(bridge.call("status", {}))
        assert status["result"]["structuredContent"]["runs"][0]["phase"] == "awaiting_approval"
        slow_host.send({"op": "cancel_run", "request_id": "req_cancel_0001"})
        done = bridge.response(first)["result"]["structuredContent"]
        assert (done["phase"], done["reason"], done["exit_code"]) == ("cancelled", "stopped", None)
        assert done["executed_partially"] is False
        assert bridge.proc.poll() is None  # still serving
        assert not any(r["request_id"] == "req_second_001" for r in slow_host.records)
        assert slow_host.records[-1]["phase"] == "cancelled"
    finally:
        bridge.close()
    assert len(slow_svc.requests) == 1


def test_host_socket_close_kills_the_worker_and_exits_143(project: Path, slow_host: FakeHost,
                                                          slow_svc: MockApprovalService) -> None:
    bridge = RawBridge(project, slow_host)
    try:
        bridge.initialize()
        bridge.call("run", {"source": EMAIL_PROGRAM, "request_id": "req_hostgone_01"})
        assert slow_host.wait_for(lambda: _awaiting(slow_host, "req_hostgone_01"))
        children = bridge.descendants()
        assert children
        slow_host.close_connections()
        assert bridge.proc.wait(timeout=90) == 143
        end = time.monotonic() + 5
        while any(alive(pid) for pid in children) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in children)
    finally:
        bridge.close()
        _withdraw(slow_svc, "req_hostgone_01")


def test_kill_9_of_the_bridge_during_approval_leaves_no_worker(project: Path, slow_host: FakeHost,
                                                                slow_svc: MockApprovalService) -> None:
    bridge = RawBridge(project, slow_host)
    try:
        bridge.initialize()
        bridge.call("run", {"source": EMAIL_PROGRAM, "request_id": "req_killnine_01"})
        assert slow_host.wait_for(lambda: _awaiting(slow_host, "req_killnine_01"))
        children = bridge.descendants()
        assert children
        os.kill(bridge.proc.pid, signal.SIGKILL)
        bridge.proc.wait(timeout=90)
        wait_gone(children, "the run's processes after the bridge's kill -9")
    finally:
        bridge.close()
        _withdraw(slow_svc, "req_killnine_01")


async def test_mcp_request_cancellation_stops_the_run(project: Path, slow_host: FakeHost) -> None:
    import asyncio

    from .conftest import bridge_session

    async with bridge_session(project, slow_host) as session:
        call = asyncio.ensure_future(session.call_tool("run", {"source": EMAIL_PROGRAM,
                                                               "request_id": "req_mcpcancel_1"}))
        for _ in range(1500):
            if _awaiting(slow_host, "req_mcpcancel_1"):
                break
            await asyncio.sleep(0.02)
        assert _awaiting(slow_host, "req_mcpcancel_1")
        call.cancel()
        for _ in range(500):
            if slow_host.records[-1]["phase"] == "cancelled":
                break
            await asyncio.sleep(0.02)
        last = slow_host.records[-1]
        assert (last["request_id"], last["phase"], last["reason"]) == ("req_mcpcancel_1", "cancelled", "stopped")
        status = await session.call_tool("status", {})
        assert status.structured_content["runs"][0]["phase"] == "cancelled"


async def test_snapshot_is_reconciled_at_start(project: Path, host: FakeHost, tmp_path: Path) -> None:
    import json

    from .conftest import bridge_session

    odd = {"request_id": "req_odd_000001", "phase": "completed", "exit_code": "zero", "approval": 3}
    stale = {"request_id": "req_stale_00001", "run_id": "req_stale_00001", "phase": "proving", "reason": None,
             "exit_code": None}
    (tmp_path / "runs-status.json").write_text(json.dumps({"schema_version": 1, "conversation_id": "conv-bridge-test",
                                                           "runs": [odd, stale]}))
    async with bridge_session(project, host) as session:
        status = await session.call_tool("status", {})
        run = status.structured_content["runs"][0]
        assert (run["request_id"], run["phase"], run["reason"]) == ("req_stale_00001", "cancelled",
                                                                    "bridge_restarted")
        odd_run = status.structured_content["runs"][1]
        assert odd_run["request_id"] == "req_odd_000001" and odd_run["exit_code"] is None


def test_client_eof_stops_the_run_and_exits_0(project: Path, slow_host: FakeHost) -> None:
    bridge = RawBridge(project, slow_host)
    try:
        bridge.initialize()
        bridge.call("run", {"source": EMAIL_PROGRAM, "request_id": "req_clienteof_1"})
        assert slow_host.wait_for(lambda: _awaiting(slow_host, "req_clienteof_1"))
        children = bridge.descendants()
        assert bridge.proc.stdin is not None
        bridge.proc.stdin.close()
        assert bridge.proc.wait(timeout=90) == 0
        assert slow_host.records[-1]["phase"] == "cancelled" and slow_host.records[-1]["reason"] == "stopped"
        assert slow_host.wait_for(lambda: not any(alive(pid) for pid in children), timeout=5)
    finally:
        bridge.close()
