"""Transport checks shared by every route (03 §3): Host, Origin, credentials, media type, body size.

Order (NET-6): Host → Sec-Fetch-Site/Origin → credential → Origin presence for cookie mutations →
Content-Type → size → JSON. Nothing reaches a handler, a record or a layer file before all pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection, Request

from clauz3.approvals.errors import ApprovalError

MAX_BODY_BYTES = 1024 * 1024
LOOPBACK_HOSTNAMES = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = ("GET", "HEAD")
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
HTML_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' "
    "data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}
_HOST_RE = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::([0-9]{1,5}))?$")


def listening_port(conn: HTTPConnection, configured: int | None = None) -> int | None:
    if configured is not None:
        return configured
    server = conn.scope.get("server")
    return int(server[1]) if server and server[1] is not None else None


def check_host(conn: HTTPConnection, *, port: int | None = None,
               hostnames: tuple[str, ...] = LOOPBACK_HOSTNAMES) -> str:
    """NET-2: loopback hostname and the listening port (80 when absent); returns the validated Host."""
    host = conn.headers.get("host", "")
    match = _HOST_RE.match(host) if host.isascii() else None
    if match is None:
        raise ApprovalError("invalid_host", "the Host header is not this service")
    name, port_text = match.group(1).lower(), match.group(2)
    wanted = listening_port(conn, port)
    given = int(port_text) if port_text is not None else 80
    if name not in hostnames or wanted is None or given != wanted:
        raise ApprovalError("invalid_host", "the Host header is not this service")
    return host


def check_origin_present(conn: HTTPConnection, host: str) -> None:
    """NET-3: a present Origin must be exactly ``http://<Host>``; ``cross-site`` fetches fail."""
    if conn.headers.get("sec-fetch-site", "").lower() == "cross-site":
        raise ApprovalError("origin_not_allowed", "cross-site requests are not allowed")
    origin = conn.headers.get("origin")
    if origin is not None and origin != f"http://{host}":
        raise ApprovalError("origin_not_allowed", "the Origin of this request is not allowed")


def bearer_token(conn: HTTPConnection) -> str | None:
    value = conn.headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def cookie_value(conn: HTTPConnection, name: str) -> str | None:
    raw = conn.headers.get("cookie")
    if not raw:
        return None
    for part in raw.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


async def read_json(request: Request, *, limit: int = MAX_BODY_BYTES) -> Any:
    """NET-5 media type, 1 MiB cap (413, counted while streaming), then strict JSON parsing."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise ApprovalError("unsupported_media_type", "the body must be sent as application/json")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ApprovalError("too_large", "the body is larger than 1 MiB")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApprovalError("too_large", "the body is larger than 1 MiB")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApprovalError("invalid_request", "the body is not valid JSON") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@dataclass(frozen=True)
class RouteSpec:
    """How one route is guarded; the table-driven security test walks these."""

    method: str
    path: str
    cred: str  # "none" | "key" | "C" | "A" | "S" | "SA"
    json_body: bool = False


Guard = Callable[[Request], Any]
