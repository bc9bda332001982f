"""Fresh sign-in links from any terminal (00 DEC-8): the service's 0600 control socket.

``<data>/workspaces/<sha256(project)>/control.sock`` accepts one JSON line ``{"op": "new_login",
"key": K}`` per connection and answers ``{"login_url": U}``. Only the socket's owner can connect
(0600 in a 0700 directory), and only a caller that read ``control.key`` (0600, beside the socket,
new for every service start) is answered: a run's sandboxed worker runs as the same user but can
neither read the data dir nor hold that key (issue 19 §3). ``clauz3 link`` is the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
import secrets
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

from clauz3.storage.paths import workspace_state_dir

LINE_LIMIT = 4096


@contextlib.contextmanager
def short_path(path: Path) -> Iterator[str]:
    """AF_UNIX paths are limited to ~108 bytes; reach a deep one through its directory's fd."""
    if len(str(path).encode()) <= 100:
        yield str(path)
        return
    fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


def control_path(data_dir: Path, project: str) -> Path:
    return workspace_state_dir(data_dir, project) / "control.sock"


def key_path(sock: Path) -> Path:
    return sock.with_name("control.key")


def _write_key(path: Path, key: str) -> None:
    """0600, written whole under a private name and renamed: a reader sees the old key or the new one."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(key)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _read_key(sock: Path) -> str | None:
    try:
        fd = os.open(key_path(sock), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(256)
    try:
        return data.decode("ascii").strip() or None
    except UnicodeDecodeError:
        return None


class ControlSocket:
    def __init__(self, path: Path, new_login: Callable[[], str]) -> None:
        self.path = path
        self._new_login = new_login
        self._server: asyncio.AbstractServer | None = None
        self._key = secrets.token_urlsafe(32)

    async def start(self) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.path.parent, 0o700)
        with contextlib.suppress(FileNotFoundError):
            if self.path.is_socket():
                self.path.unlink()  # a stale socket of a dead service (we hold the project lease)
        _write_key(key_path(self.path), self._key)  # before the socket exists: every client finds a key
        old = os.umask(0o177)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with short_path(self.path) as where:
                sock.bind(where)
            sock.listen(8)
            self._server = await asyncio.start_unix_server(self._serve, sock=sock, limit=LINE_LIMIT)
        except BaseException:
            sock.close()
            raise
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), 5.0)
            request = json.loads(line.decode("utf-8"))
            key = request.get("key") if isinstance(request, dict) else None
            if not isinstance(key, str) or not hmac.compare_digest(key.encode(), self._key.encode()):
                writer.write(b'{"error": "unauthorized"}\n')  # no key, no link: nothing else is said
                await writer.drain()
            elif request.get("op") == "new_login":
                writer.write((json.dumps({"login_url": self._new_login()}) + "\n").encode())
                await writer.drain()
        except (TimeoutError, ValueError, UnicodeDecodeError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        with contextlib.suppress(OSError):
            self.path.unlink()
        with contextlib.suppress(OSError):
            key_path(self.path).unlink()


def request_link(path: Path, timeout: float = 5.0) -> str | None:
    """The client side: a fresh login URL, or None when no service answers (or its key is unreadable)."""
    key = _read_key(path)
    if key is None:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            with short_path(path) as where:
                sock.connect(where)
            sock.sendall((json.dumps({"op": "new_login", "key": key}) + "\n").encode())
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
    except OSError:
        return None
    try:
        reply = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    url = reply.get("login_url") if isinstance(reply, dict) else None
    return url if isinstance(url, str) else None
