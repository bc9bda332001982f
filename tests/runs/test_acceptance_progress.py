"""03 MCP-7 acceptance: a client that blocks progress notifications delays neither the deadlines nor the phases.

The bridge's stdout is a 4 KiB pipe that the test fills before the ``run`` call and does not read until the run
is final, so not one progress notification (nor the result) can be written meanwhile. The run must still move
through its phases and hit its deadline, as the host sees through the lifetime socket.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest

from clauz3.approvals.mock import MockApprovalService

from .conftest import slow_program

F_SETPIPE_SZ = 1031
FAKEHOST = Path(__file__).resolve().parents[1] / "bridge" / "fakehost.py"


def _fakehost_class() -> Any:
    spec = importlib.util.spec_from_file_location("c3_runs_fakehost", FAKEHOST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FakeHost


def _pending(fd: int) -> int:
    buf = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, buf)
    return int.from_bytes(buf, sys.byteorder)


class BlockedClient:
    """A raw MCP client on a bridge whose stdout pipe the test can fill and later drain."""

    def __init__(self, project: Path, env: dict[str, str]) -> None:
        self.r, w = os.pipe()
        fcntl.fcntl(w, F_SETPIPE_SZ, 4096)
        self.capacity = fcntl.fcntl(w, 1032)  # F_GETPIPE_SZ
        args = [sys.executable, "-P", "-m", "clauz3.bridge", "--project", str(project),
                "--trusted-root", str(project / "tools" / "slow" / "trusted"),
                "--import-root", str(project / ".clauz3"), "--import-root", str(project)]
        self.proc = subprocess.Popen(args, cwd=project, env=env, stdin=subprocess.PIPE, stdout=w,
                                     stderr=subprocess.DEVNULL)
        self.w = w
        self.buffer = b""

    def send(self, doc: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(doc) + "\n").encode())
        self.proc.stdin.flush()

    def read_until(self, predicate: Any, timeout: float = 60.0) -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        end = time.monotonic() + timeout
        os.set_blocking(self.r, False)
        while time.monotonic() < end:
            try:
                chunk = os.read(self.r, 65536)
            except BlockingIOError:
                time.sleep(0.02)
                continue
            self.buffer += chunk
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                try:
                    doc = json.loads(line)
                except ValueError:
                    continue  # the filler
                seen.append(doc)
                if predicate(doc):
                    return seen
        raise AssertionError(f"nothing matched; saw {seen}")

    def fill(self) -> None:
        """Make the pipe full: any further write by the bridge blocks until the test reads."""
        assert _pending(self.r) == 0
        os.write(self.w, b"#" * (self.capacity - 1) + b"\n")
        os.close(self.w)
        assert _pending(self.r) == self.capacity

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        os.close(self.r)


@pytest.mark.parametrize("deadline", ["proof", "execution"])
def test_a_client_blocking_progress_delays_neither_deadline_nor_phases(project: Path, data: Path, tmp_path: Path,
                                                                      deadline: str) -> None:
    marker = project / "marker.txt"
    with MockApprovalService(data, project) as svc:
        creds = {"service_url": svc.url, "submission_token": svc.token, "verify_key": svc.verify_key.text,
                 "workspace_generation": None, "conversation_id": "conv-progress",
                 "status_file": str(tmp_path / "runs-status.json"),
                 "proof_timeout_seconds": 0.05 if deadline == "proof" else 60, "require_sandbox": False}
        host = _fakehost_class()(creds)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        env.update(CLAUZ3_HOME=str(data), CLAUZ3_CACHE=str(data.parent / "cache"), **host.env())
        client = BlockedClient(project, env)
        try:
            client.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "blocked", "version": "0"}}})
            client.read_until(lambda d: d.get("id") == 1)
            client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            client.fill()
            client.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "run", "_meta": {"progressToken": "p1"},
                                    "arguments": {"source": slow_program(f"mark({str(marker)!r})", "pause(60)"),
                                                  "request_id": "req_blocked_0001", "timeout_seconds": 1}}})
            final = {"proof": ("refused", "proof_deadline"), "execution": ("failed", "execution_timeout")}[deadline]
            assert host.wait_for(lambda: any((r["phase"], r.get("reason")) == final for r in host.records), 90), \
                host.records
            assert _pending(client.r) == client.capacity  # the client read nothing during the whole run
            phases = [r["phase"] for r in host.records]
            if deadline == "execution":
                assert marker.exists()
                assert phases.index("proving") < phases.index("executing") < phases.index("failed")
            else:
                assert not marker.exists() and svc.requests == []

            frames = client.read_until(lambda d: d.get("id") == 2)
            result = frames[-1]["result"]
            assert (result["structuredContent"]["phase"], result["structuredContent"]["reason"]) == final
            progress = [f["params"] for f in frames if f.get("method") == "notifications/progress"]
            assert progress, "no progress notification was sent once the client read again"
            values = [p["progress"] for p in progress]
            assert values == sorted(set(values)) and all(p["progressToken"] == "p1" for p in progress)
        finally:
            client.close()
            host.close()
