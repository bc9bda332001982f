"""A small threaded stand-in for the host's lifetime socket (03 CRED-4, LIFE-1, DEC-5).

Accepts ``{"hello":1,"ticket":T}``; a live ticket gets the credentials line as often as the real host
gives it (``lifetime.MAX_HANDSHAKES``: once, issue 11 §5); a wrong or spent ticket is closed without a
reply. A test that starts several bridges mints a ticket for each (:meth:`FakeHost.mint`), as the host
mints one per agent start. Afterwards it records every bridge line and can
send host lines (``cancel_run``) or close the connections.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from clauz3.sessions.conversation.lifetime import MAX_HANDSHAKES


class FakeHost:
    def __init__(self, credentials: dict[str, Any]) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="c3fh-", dir="/tmp"))
        os.chmod(self.directory, 0o700)
        self.path = str(self.directory / "bridge")
        self.credentials = credentials
        self.ticket = secrets.token_urlsafe(32)  # the first start's ticket; env() hands it out by default
        self.tickets: dict[str, int] = {self.ticket: 0}  # ticket → handshakes it bought
        self.refused = 0
        self.lines: list[dict[str, Any]] = []
        self.conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(self.path)
        self._server.listen(8)
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def records(self) -> list[dict[str, Any]]:
        with self._lock:
            return [m["record"] for m in self.lines if m.get("op") == "run"]

    @property
    def uses(self) -> int:
        """Handshakes answered with credentials, over every ticket."""
        with self._lock:
            return sum(self.tickets.values())

    def mint(self) -> str:
        """A fresh ticket, as the host mints one for each agent start."""
        ticket = secrets.token_urlsafe(32)
        with self._lock:
            self.tickets[ticket] = 0
        return ticket

    def env(self, ticket: str | None = None) -> dict[str, str]:
        return {"CLAUZ3_SESSION_LIFETIME_SOCKET": self.path, "CLAUZ3_BRIDGE_TICKET": ticket or self.ticket}

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        reader = conn.makefile("rb")
        try:
            hello = json.loads(reader.readline().decode("utf-8"))
        except (ValueError, OSError):
            conn.close()
            return
        with self._lock:
            presented = hello.get("ticket") if isinstance(hello, dict) and hello.get("hello") == 1 else None
            ok = isinstance(presented, str) and self.tickets.get(presented, MAX_HANDSHAKES) < MAX_HANDSHAKES
            if ok:
                self.tickets[str(presented)] += 1
                self.conns.append(conn)
            else:
                self.refused += 1
        if not ok:
            conn.close()
            return
        conn.sendall((json.dumps(self.credentials) + "\n").encode("utf-8"))
        while True:
            try:
                line = reader.readline()
            except (OSError, ValueError):
                return
            if not line:
                return
            try:
                doc = json.loads(line.decode("utf-8"))
            except ValueError:
                continue
            with self._lock:
                self.lines.append(doc)

    def send(self, message: dict[str, Any] | str) -> None:
        data = (message if isinstance(message, str) else json.dumps(message)) + "\n"
        with self._lock:
            for conn in list(self.conns):
                try:
                    conn.sendall(data.encode("utf-8"))
                except OSError:
                    pass

    def close_connections(self) -> None:
        with self._lock:
            conns, self.conns = self.conns, []
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()

    def wait_for(self, predicate: Any, timeout: float = 90.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.02)
        return predicate()

    def __enter__(self) -> FakeHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        self.close_connections()
        self._server.close()
        try:
            os.unlink(self.path)
            self.directory.rmdir()
        except OSError:
            pass
