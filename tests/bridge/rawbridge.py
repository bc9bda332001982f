"""A bare JSON-RPC driver of a bridge subprocess, for tests that need its pid (kill -9, exit status)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from proc_tree import descendants  # tests/ is on sys.path: it holds this package

from .conftest import bridge_args, bridge_env
from .fakehost import FakeHost


class RawBridge:
    def __init__(self, project: Path, host: FakeHost, *, ticket: str | None = None,
                 extra: list[str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, *bridge_args(project, extra=extra)], cwd=str(project),
                                     env=bridge_env(host, ticket), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.messages: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            with self._lock:
                self.messages.append(doc)

    def send(self, doc: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(doc) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> int:
        self._next += 1
        self.send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        return self._next

    def response(self, rid: int, timeout: float = 30.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                for doc in self.messages:
                    if doc.get("id") == rid and ("result" in doc or "error" in doc):
                        return doc
            time.sleep(0.02)
        raise AssertionError(f"no response to request {rid}")

    def initialize(self) -> None:
        rid = self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                          "clientInfo": {"name": "raw-test", "version": "0"}})
        self.response(rid)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, tool: str, arguments: dict[str, Any]) -> int:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def descendants(self) -> list[int]:
        return descendants(self.proc.pid)

    def stderr_text(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=90)
