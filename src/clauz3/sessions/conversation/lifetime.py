"""Bridge lifetime sockets (02 PROC-3, PROC-4; 03 LIFE-1, CRED-4; 00 DEC-5).

Per conversation the service listens on a Unix socket ``bridge`` in a private 0700 directory. A
bridge connects, sends ``{"hello":1,"ticket":T}`` and, for a live ticket (minted per agent start,
exactly one handshake, issue 11 §5), receives its runner credentials as one JSON line. The ticket
never travels in an environment: the bridge entry names a 0600 file in the socket's 0700 directory
that the bridge reads and unlinks at once (:meth:`LifetimeServer.ticket_file`). The connection then stays open:
host → bridge lines (``cancel_run``) and bridge → host lines ``{"op":"run","record":{…}}``, which
are handed to :attr:`LifetimeServer.on_record` the moment they arrive — the one seam where run
records enter the host. Closing the connection (agent ended, service gone) ends the bridge.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.approvals.tokens import secrets_equal
from clauz3.runs.records import RunRecord

log = logging.getLogger("clauz3.sessions.conversation.lifetime")

MAX_HANDSHAKES = 1  # issue 11 §5 (wins over 03 CRED-4's four): a ticket buys one set of credentials
HANDSHAKE_TIMEOUT = 10.0
LINE_LIMIT = 1024 * 1024
MAX_SOCKET_PATH = 100

# (conversation_id, workspace_generation the bridge was given, record)
RecordSink = Callable[[str, str, RunRecord], None]
# (conversation_id) when a bridge connection of a live start closes by itself
GoneSink = Callable[[str], None]
Credentials = Callable[[], dict[str, Any]]


@dataclass
class _Ticket:
    value: str
    conversation_id: str
    credentials: Credentials
    uses: int = 0
    writers: list[asyncio.StreamWriter] = field(default_factory=list)
    alive: bool = True
    file: Path | None = None


@dataclass
class _Endpoint:
    conversation_id: str
    directory: Path
    path: Path
    server: asyncio.AbstractServer


class LifetimeServer:
    def __init__(self, base_dir: Path) -> None:
        self._base = base_dir
        self._endpoints: dict[str, _Endpoint] = {}
        self._tickets: dict[str, _Ticket] = {}
        self.on_record: RecordSink = lambda cid, generation, record: None
        self.on_gone: GoneSink = lambda cid: None

    # -- endpoints and tickets ------------------------------------------------------------------

    async def endpoint(self, conversation_id: str) -> str:
        """The socket path for ``conversation_id`` (created on first use)."""
        found = self._endpoints.get(conversation_id)
        if found is not None:
            return str(found.path)
        directory = Path(tempfile.mkdtemp(prefix="lt-", dir=self._base))
        path = directory / "bridge"
        if len(str(path).encode()) > MAX_SOCKET_PATH:
            shutil.rmtree(directory, ignore_errors=True)
            directory = Path(tempfile.mkdtemp(prefix="clauz3-lt-", dir="/tmp"))
            path = directory / "bridge"
        os.chmod(directory, 0o700)
        server = await asyncio.start_unix_server(
            lambda r, w: self._serve(conversation_id, r, w), path=str(path), limit=LINE_LIMIT
        )
        os.chmod(path, 0o600)
        self._endpoints[conversation_id] = _Endpoint(conversation_id, directory, path, server)
        return str(path)

    def mint_ticket(self, conversation_id: str, credentials: Credentials) -> str:
        """A fresh bootstrap ticket for one agent start (never reused across starts)."""
        value = secrets.token_urlsafe(32)
        self._tickets[value] = _Ticket(value, conversation_id, credentials)
        return value

    def ticket_file(self, ticket: str) -> str:
        """Write ``ticket`` into a fresh 0600 file in its conversation's 0700 socket directory and
        return the path: the bridge entry's ``CLAUZ3_BRIDGE_TICKET_FILE``. The bridge reads and
        unlinks it at start, so the ticket is never in any process's environment or arguments."""
        entry = self._tickets[ticket]
        endpoint = self._endpoints.get(entry.conversation_id)
        if endpoint is None:
            raise KeyError(f"no lifetime endpoint for conversation {entry.conversation_id}")
        path = endpoint.directory / f"ticket-{secrets.token_hex(8)}"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, ticket.encode("ascii"))
        finally:
            os.close(fd)
        entry.file = path
        return str(path)

    def _drop_file(self, entry: _Ticket) -> None:
        if entry.file is not None:
            with contextlib.suppress(OSError):
                entry.file.unlink()
            entry.file = None

    def end_ticket(self, ticket: str) -> None:
        """The agent of this start ended: the ticket dies and its bridges lose their socket."""
        entry = self._tickets.pop(ticket, None)
        if entry is None:
            return
        entry.alive = False
        self._drop_file(entry)
        for writer in entry.writers:
            with contextlib.suppress(Exception):
                writer.close()
        entry.writers.clear()

    def secret_values(self) -> list[str]:
        return list(self._tickets)

    def send(self, conversation_id: str, message: dict[str, Any]) -> int:
        """Send one host → bridge line to every live bridge of the conversation; returns the count."""
        line = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        sent = 0
        for entry in self._tickets.values():
            if entry.conversation_id != conversation_id:
                continue
            for writer in list(entry.writers):
                if writer.is_closing():
                    continue
                with contextlib.suppress(Exception):
                    writer.write(line)
                    sent += 1
        return sent

    def cancel_run(self, conversation_id: str, request_id: str) -> int:
        return self.send(conversation_id, {"op": "cancel_run", "request_id": request_id})

    async def close_conversation(self, conversation_id: str) -> None:
        for value in [t for t, e in self._tickets.items() if e.conversation_id == conversation_id]:
            self.end_ticket(value)
        endpoint = self._endpoints.pop(conversation_id, None)
        if endpoint is not None:
            endpoint.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(endpoint.server.wait_closed(), 1.0)
            shutil.rmtree(endpoint.directory, ignore_errors=True)

    async def close(self) -> None:
        for cid in list(self._endpoints):
            await self.close_conversation(cid)
        for value in list(self._tickets):
            self.end_ticket(value)

    # -- connections ------------------------------------------------------------------------------

    async def _serve(self, conversation_id: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        entry: _Ticket | None = None
        generation = ""
        try:
            try:
                line = await asyncio.wait_for(reader.readline(), HANDSHAKE_TIMEOUT)
                hello = json.loads(line.decode("utf-8"))
            except (TimeoutError, ValueError, UnicodeDecodeError, asyncio.LimitOverrunError):
                return
            entry = self._accept(conversation_id, hello)
            if entry is None:
                return  # wrong, dead or exhausted ticket: no reply (CRED-4)
            credentials = entry.credentials()
            generation = str(credentials.get("workspace_generation", ""))
            entry.writers.append(writer)
            writer.write((json.dumps(credentials, separators=(",", ":")) + "\n").encode())
            await writer.drain()
            while True:
                try:
                    line = await reader.readline()
                except (asyncio.LimitOverrunError, ValueError):
                    break
                if not line:
                    break
                self._bridge_line(entry, generation, line)
        except (ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()
            if entry is not None:
                if writer in entry.writers:
                    entry.writers.remove(writer)
                if entry.alive:
                    self.on_gone(entry.conversation_id)

    def _accept(self, conversation_id: str, hello: Any) -> _Ticket | None:
        if not isinstance(hello, dict) or hello.get("hello") != 1 or not isinstance(hello.get("ticket"), str):
            return None
        presented = hello["ticket"]
        found: _Ticket | None = None
        for value, entry in self._tickets.items():  # compare with every ticket: no timing hint
            if secrets_equal(presented, value):
                found = entry
        if found is None or not found.alive or found.conversation_id != conversation_id:
            return None
        if found.uses >= MAX_HANDSHAKES:
            return None
        found.uses += 1
        self._drop_file(found)  # spent: whoever reads the file now finds nothing
        return found

    def _bridge_line(self, entry: _Ticket, generation: str, line: bytes) -> None:
        try:
            message = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return
        if not entry.alive or not isinstance(message, dict):
            return
        if message.get("op") == "run" and isinstance(message.get("record"), dict):
            # The one edge where run records enter the host: parsed here, typed from here on.
            doc = message["record"]
            try:
                if not isinstance(doc.get("request_id"), str):
                    raise ValueError("no request id")
                record = RunRecord.from_json(doc)
            except (TypeError, ValueError) as exc:
                log.warning("a bridge sent a run record this version cannot read: %s", exc)
                return
            try:
                self.on_record(entry.conversation_id, generation, record)
            except Exception:
                log.exception("run record handler failed")
