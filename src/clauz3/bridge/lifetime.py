"""The bridge side of the host's lifetime socket (03 LIFE-1, CRED-4; 00 DEC-5).

Protocol (JSON lines over the Unix socket named by ``CLAUZ3_SESSION_LIFETIME_SOCKET``):

* bridge → host, once: ``{"hello":1,"ticket":T}``, T read from the 0600 file named by
  ``CLAUZ3_BRIDGE_TICKET_FILE`` and unlinked at once (issue 11 §5: the ticket is never in the
  environment; ``CLAUZ3_BRIDGE_TICKET`` itself is still read for hosts that pass it directly);
* host → bridge, once: the runner credentials ``{service_url, submission_token, verify_key,
  workspace_generation, conversation_id, status_file, proof_timeout_seconds, require_sandbox}``;
  a wrong, dead or exhausted ticket gets no reply: the host just closes the connection;
* afterwards, host → bridge: ``{"op":"cancel_run","request_id":R}``; unknown ops and malformed
  lines are ignored, never a protocol error;
* bridge → host: ``{"op":"run","record":{…}}`` for every run-record change, as it happens.

The connection is the bridge's life: when it closes, the bridge SIGKILLs its active worker's process
group and exits with status 143 (LIFE-1).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.bridge.errors import BridgeError
from clauz3.runs.records import RunRecord

SOCKET_ENV = "CLAUZ3_SESSION_LIFETIME_SOCKET"
TICKET_ENV = "CLAUZ3_BRIDGE_TICKET"
TICKET_FILE_ENV = "CLAUZ3_BRIDGE_TICKET_FILE"
MAX_TICKET_BYTES = 256
HANDSHAKE_TIMEOUT = 10.0
MAX_LINE = 1024 * 1024
EXIT_HOST_GONE = 143


class BootstrapError(BridgeError):
    """The bridge got no credentials; the message is one line for stderr (exit 2)."""


@dataclass(frozen=True)
class Credentials:
    service_url: str
    submission_token: str
    verify_key: str
    workspace_generation: str | None
    conversation_id: str | None
    status_file: str | None
    proof_timeout_seconds: float
    require_sandbox: bool

    def __repr__(self) -> str:  # CRED-6: never print the token or key
        return f"Credentials(conversation_id={self.conversation_id!r}, service_url={self.service_url!r})"

    @classmethod
    def from_json(cls, doc: Any) -> Credentials:
        if not isinstance(doc, dict):
            raise BootstrapError("the clauz3 host sent invalid bridge credentials")
        for key in ("service_url", "submission_token", "verify_key"):
            if not isinstance(doc.get(key), str) or not doc[key]:
                raise BootstrapError(f"the clauz3 host sent bridge credentials without {key}")
        timeout = doc.get("proof_timeout_seconds", 30)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 600:
            raise BootstrapError("the clauz3 host sent an invalid proof_timeout_seconds")

        def opt(key: str) -> str | None:
            value = doc.get(key)
            return str(value) if value is not None else None

        return cls(doc["service_url"], doc["submission_token"], doc["verify_key"], opt("workspace_generation"),
                   opt("conversation_id"), opt("status_file"), float(timeout), doc.get("require_sandbox") is True)


def read_ticket_file(path: str) -> str:
    """Read and unlink the host's ticket file: a regular 0600 file of ours, not a link (issue 11 §5)."""
    from clauz3.storage.secretfiles import InsecureFileError, read_secret

    try:
        data = read_secret(Path(path))
    except FileNotFoundError:
        raise BootstrapError(f"{TICKET_FILE_ENV}: the ticket file is gone (a ticket serves one bridge start)") from None
    except InsecureFileError:
        raise BootstrapError(f"{TICKET_FILE_ENV}: the ticket file is not a private (0600) file") from None
    except (OSError, ValueError) as exc:
        raise BootstrapError(f"{TICKET_FILE_ENV}: cannot read the ticket file: {exc}") from None
    try:
        os.unlink(path)  # spent at once, whatever happens next
    except OSError:
        pass
    if len(data) > MAX_TICKET_BYTES or not data.isascii():
        raise BootstrapError(f"{TICKET_FILE_ENV}: the ticket file does not hold a ticket")
    return data.decode("ascii").strip()


class LifetimeLink:
    """One connection to the host: handshake, then a reader thread and thread-safe record pushes."""

    def __init__(self, path: str, ticket: str) -> None:
        self.path = path
        self._ticket = ticket
        self._sock: socket.socket | None = None
        self._reader: Any = None
        self._send_lock = threading.Lock()
        self.closed = threading.Event()

    @classmethod
    def from_environment(cls, env: dict[str, str] | None = None) -> LifetimeLink:
        env = dict(os.environ if env is None else env)
        path = env.get(SOCKET_ENV) or ""
        ticket_file = env.get(TICKET_FILE_ENV) or ""
        ticket = read_ticket_file(ticket_file) if ticket_file else env.get(TICKET_ENV) or ""
        if not path:
            raise BootstrapError(f"{SOCKET_ENV} is not set: the clauz3 bridge is started by a clauz3 host "
                                 "(clauz3 ui or clauz3 start)")
        if not ticket:
            raise BootstrapError(f"{TICKET_ENV} is not set: the clauz3 bridge needs its bootstrap ticket")
        return cls(path, ticket)

    def handshake(self, timeout: float = HANDSHAKE_TIMEOUT) -> Credentials:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(self.path)
            hello = json.dumps({"hello": 1, "ticket": self._ticket}, separators=(",", ":")) + "\n"
            sock.sendall(hello.encode("utf-8"))
            reader = sock.makefile("rb")
            line = reader.readline(MAX_LINE + 1)
        except OSError as exc:
            sock.close()
            raise BootstrapError(f"cannot reach the clauz3 host's lifetime socket: {exc.strerror or exc}") from None
        if not line.endswith(b"\n"):
            sock.close()
            raise BootstrapError("the clauz3 host refused the bridge ticket (no credentials were sent)")
        try:
            creds = Credentials.from_json(json.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            sock.close()
            raise BootstrapError("the clauz3 host sent invalid bridge credentials") from None
        except BootstrapError:
            sock.close()
            raise
        sock.settimeout(None)
        self._sock, self._reader = sock, reader
        self._ticket = ""  # spent: never kept longer than needed
        return creds

    def start(self, on_cancel: Callable[[str], object], on_close: Callable[[], None]) -> None:
        """Read host lines in a daemon thread; ``on_close`` runs once when the connection ends."""
        threading.Thread(target=self._read_loop, args=(on_cancel, on_close), daemon=True,
                         name="bridge-lifetime").start()

    def _read_loop(self, on_cancel: Callable[[str], object], on_close: Callable[[], None]) -> None:
        try:
            while True:
                try:
                    line = self._reader.readline(MAX_LINE + 1)
                except (OSError, ValueError):
                    break
                if not line:
                    break
                if not line.endswith(b"\n"):
                    if len(line) > MAX_LINE:  # an oversize line: skip the rest of it
                        self._skip_rest()
                        continue
                    break  # EOF inside a line
                self._host_line(line, on_cancel)
        finally:
            self.closed.set()
            on_close()

    def _skip_rest(self) -> None:
        while True:
            chunk = self._reader.readline(MAX_LINE)
            if not chunk or chunk.endswith(b"\n"):
                return

    @staticmethod
    def _host_line(line: bytes, on_cancel: Callable[[str], object]) -> None:
        try:
            message = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return
        if not isinstance(message, dict):
            return
        if message.get("op") == "cancel_run" and isinstance(message.get("request_id"), str):
            try:
                on_cancel(message["request_id"])
            except Exception as exc:  # a host line never breaks the bridge
                print(f"clauz3 bridge: cancel_run failed: {exc}", file=sys.stderr)

    def push(self, record: RunRecord) -> None:
        """DEC-5: send one run record now; failures are ignored (the socket's end is handled by the reader)."""
        sock = self._sock
        if sock is None or self.closed.is_set():
            return
        line = {"op": "run", "record": record.to_json()}  # the host link is a JSON edge
        data = (json.dumps(line, ensure_ascii=False, separators=(",", ":"))
                + "\n").encode("utf-8")
        with self._send_lock:
            try:
                sock.sendall(data)
            except OSError:
                pass
