"""Serving the authority alone (03 LIFE-6, CLI-4/5/8): loopback binding, uvicorn, clean stop."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import signal
import socket
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from clauz3.approvals.app import ApprovalHTTP, build_app
from clauz3.approvals.errors import ApprovalError


class NotLoopback(ApprovalError, ValueError):
    def __init__(self, addr: str) -> None:
        super().__init__("not_loopback",
                         f"refusing non-loopback address {addr}: clauz3 services listen on loopback only")


def _is_loopback(addr: str) -> bool:
    try:
        return ipaddress.ip_address(addr.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def bind_loopback(host: str, port: int) -> socket.socket:
    """NET-1: bind only 127.0.0.1, ::1 or a localhost that resolves to loopback; pre-bound for uvicorn."""
    text = host.strip("[]")
    if text == "localhost":
        try:
            infos = socket.getaddrinfo(text, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            raise NotLoopback(host) from exc
        if not infos or not all(_is_loopback(str(i[4][0])) for i in infos):
            raise NotLoopback(host)
        family, addr = infos[0][0], infos[0][4]
    elif _is_loopback(text) and text in ("127.0.0.1", "::1"):
        family = socket.AF_INET6 if ":" in text else socket.AF_INET
        addr = (text, port)
    else:
        raise NotLoopback(host)
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: without, a response written in two segments waits ~40 ms for a
    # delayed ACK (Nagle), on every request of every submitter and page.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(addr)
    sock.listen(128)  # connections queue from the moment the banner names the port
    sock.set_inheritable(False)
    return sock


def url_host(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def discover_default_layer(project: Path) -> tuple[list[str], list[str]]:
    """Without root flags: every ``tools/<d>/trusted`` (and ``tools/<org>/<d>/trusted``) under the
    project or its ``.clauz3`` directory, in sorted order, with their import roots."""
    trusted: list[str] = []
    imports: list[str] = []
    for root in (project, project / ".clauz3"):
        tools = root / "tools"
        if not tools.is_dir():
            continue
        found = sorted({str(p) for p in tools.glob("*/trusted") if p.is_dir()}
                       | {str(p) for p in tools.glob("*/*/trusted") if p.is_dir()})
        if found:
            imports.append(str(root))
            trusted.extend(found)
    return trusted, imports


async def serve(http: ApprovalHTTP, sock: socket.socket) -> None:
    """Run until SIGINT/SIGTERM; pending requests are cancelled (``service_stopping``) first, so
    long-polling submitters return at once, then the server stops and the process exits 0."""
    import uvicorn

    app = build_app(http)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=5, ws="none")
    server = uvicorn.Server(config)
    server.capture_signals = nullcontext  # type: ignore[assignment]  # uvicorn must not take the signals: stop() below owns them
    loop = asyncio.get_running_loop()

    def stop(*_: Any) -> None:
        http.authority.begin_stop()
        server.should_exit = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    try:
        await server.serve(sockets=[sock])
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def env_secret(name: str) -> str | None:
    """CRED-2: an empty variable counts as unset."""
    value = os.environ.get(name, "")
    return value or None
