"""Request checks before any handler (02 §3.2, §3.3): Host, peer, Sec-Fetch-Site, Origin, cookie.

One ASGI middleware classifies each path and applies the checks of its class before routing, so no
handler, body parser, store or library import runs for a refused request. The 03 approval routes
mounted from :mod:`clauz3.approvals.app` get the Host/peer check here and their own guard after.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from clauz3.approvals.cookies import PAGE_HEADER, REISSUE_AFTER_SECONDS
from clauz3.approvals.transport import cookie_value
from clauz3.sessions.errors import SessionError
from clauz3.sessions.web.auth import SignIn

MAX_JSON_BYTES = 64_000
BASE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
PAGES = frozenset({"/", "/ui", "/ui/libraries", "/ui/profile"})
HOST_ONLY = frozenset({"/health", "/ui/login"})
ASSET_PREFIX = "/ui/assets/"
APPROVAL_PREFIXES = ("/ui/requests/", "/api/requests", "/api/service", "/api/profile", "/ui/logout")
SIGN_IN_TEXT = (
    "This sign-in link is invalid or was already used. For a new one, run clauz3 link in the project folder "
    "(or press Enter in the terminal running clauz3 ui) and open the link it prints."
)
MESSAGES = {
    "invalid_host": "This address is not the clauz3 workspace.",
    "forbidden": "Requests must come from this computer.",
    "origin_not_allowed": "This request came from another site and was refused.",
    "origin_required": "This request needs an Origin header.",
    "unauthenticated": "Open the sign-in link from your terminal to continue.",
}


def csp(port: int) -> str:
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
        f"connect-src 'self' ws://127.0.0.1:{port}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


class HttpError(SessionError):
    """A refusal with an HTTP-3 body; ``message`` is a full user-facing sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def response(self) -> Response:
        return JSONResponse({"error": {"code": self.code, "message": self.message}}, status_code=self.status)


# Issue 12: the sign-in page is styled, still self-contained (no script, no asset request): one inline
# style block, allowed by its hash only.
SIGN_IN_STYLE = (
    ":root{color-scheme:light dark;font-family:system-ui,sans-serif}"
    "body{margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}"
    "main{max-width:32rem;margin:1rem;padding:1.5rem 1.75rem;border:1px solid GrayText;border-radius:10px}"
    "h1{font-size:1.3rem;margin:0 0 .75rem}p{line-height:1.5;margin:.5rem 0}"
    "code{font-family:ui-monospace,monospace;padding:.1em .35em;border:1px solid GrayText;border-radius:4px}"
)
SIGN_IN_STYLE_HASH = base64.b64encode(hashlib.sha256(SIGN_IN_STYLE.encode()).digest()).decode()


def sign_in_page(text: str = "Open the sign-in link from your terminal to continue.") -> str:
    said = text.replace("clauz3 link", "<code>clauz3 link</code>", 1)  # text is ours, never request data
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>clauz3 sign-in</title>"
        f"<style>{SIGN_IN_STYLE}</style></head>"
        f"<body><main><h1>clauz3 workspace</h1><p>{said}</p></main></body></html>"
    )


def sign_in_response(text: str | None = None) -> HTMLResponse:
    csp_value = f"default-src 'none'; style-src 'sha256-{SIGN_IN_STYLE_HASH}'; base-uri 'none'; form-action 'none'; " \
        "frame-ancestors 'none'"
    body = sign_in_page(text) if text is not None else sign_in_page()
    return HTMLResponse(body, status_code=401, headers={"content-security-policy": csp_value})


def path_class(path: str) -> str:
    """``host`` | ``page`` | ``api`` | ``approvals`` | ``ws``."""
    if path in HOST_ONLY:
        return "host"
    if path == "/api/chat/acp":
        return "ws"
    if path in PAGES:
        return "page"
    if any(path == p.rstrip("/") or path.startswith(p.rstrip("/") + "/") for p in APPROVAL_PREFIXES):
        return "approvals"
    return "api"


def host_ok(conn: HTTPConnection, port: int) -> bool:
    """AUTH-5: exactly ``127.0.0.1:<port>``; the bare address only for port 80."""
    host = conn.headers.get("host", "")
    return host == f"127.0.0.1:{port}" or (port == 80 and host == "127.0.0.1")


def peer_ok(conn: HTTPConnection) -> bool:
    client = conn.scope.get("client")
    if not client:
        return False
    return client[0] == "127.0.0.1"


def origin(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def check_fetch_and_origin(conn: HTTPConnection, port: int, *, page: bool, mutation: bool) -> None:
    """AUTH-7 and AUTH-8."""
    site = conn.headers.get("sec-fetch-site")
    allowed = ("same-origin", "none") if page else ("same-origin",)
    if site is not None and site.lower() not in allowed:
        raise HttpError(403, "origin_not_allowed", MESSAGES["origin_not_allowed"])
    given = conn.headers.get("origin")
    if mutation and given is None:
        raise HttpError(403, "origin_required", MESSAGES["origin_required"])
    if given is not None and given != origin(port):
        raise HttpError(403, "origin_not_allowed", MESSAGES["origin_not_allowed"])


async def read_json_body(request: Request, limit: int = MAX_JSON_BYTES) -> Any:
    """HTTP-4: media type (415), size counted while streaming (413), strict JSON (400)."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise HttpError(415, "unsupported_media_type", "Send the body as application/json.")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise HttpError(413, "too_large", "The request body is too large.")
    size = 0
    chunks: list[bytes] = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HttpError(413, "too_large", "The request body is too large.")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError):
        raise HttpError(400, "invalid_request", "The request body is not valid JSON.") from None


def _no_constant(name: str) -> Any:
    raise ValueError(name)


class RequestChecks:
    """The middleware. ``scope["state"]["cookie_issued"]`` tells handlers the session is valid."""

    def __init__(self, app: ASGIApp, *, port: int, sign_in: SignIn) -> None:
        self.app = app
        self.port = port
        self.sign_in = sign_in

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        if scope["type"] == "websocket":
            if not host_ok(conn, self.port) or not peer_ok(conn):
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        kind = path_class(scope["path"])
        try:
            if not host_ok(conn, self.port):
                raise HttpError(400, "invalid_host", MESSAGES["invalid_host"])
            if not peer_ok(conn):
                raise HttpError(403, "forbidden", MESSAGES["forbidden"])
            issued = None
            if kind in ("page", "api", "ws"):
                mutation = scope["method"] not in ("GET", "HEAD")
                check_fetch_and_origin(conn, self.port, page=kind == "page", mutation=mutation)
                issued = self.sign_in.cookie_ok(cookie_value(conn, self.sign_in.cookies.name))
                if issued is None:
                    if kind == "page":
                        await self._send(sign_in_response(), scope, receive, send)
                        return
                    raise HttpError(401, "unauthenticated", MESSAGES["unauthenticated"])
                # Issue 19: the cookie reaches every port of 127.0.0.1; an API call also needs the page's
                # secret. Pages and assets do not (a navigation or <script> cannot add a header) and hold no data.
                if kind == "api" and not scope["path"].startswith(ASSET_PREFIX) \
                        and not self.sign_in.page_ok(conn.headers.get(PAGE_HEADER)):
                    raise HttpError(401, "unauthenticated", MESSAGES["unauthenticated"])
        except HttpError as exc:
            await self._send(exc.response(), scope, receive, send)
            return
        await self.app(scope, receive, self._headers(send, issued))

    async def _send(self, response: Response, scope: Scope, receive: Receive, send: Send) -> None:
        await response(scope, receive, self._headers(send, None))

    def _headers(self, send: Send, issued: int | None) -> Send:
        port = self.port
        cookies = self.sign_in.cookies

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                for key, value in BASE_HEADERS.items():
                    if key.lower().encode() not in names:
                        headers.append((key.lower().encode(), value.encode()))
                content_type = dict(headers).get(b"content-type", b"")
                if content_type.startswith(b"text/html") and b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", csp(port).encode()))
                if issued is not None and time.time() - issued >= REISSUE_AFTER_SECONDS:
                    headers.append((b"set-cookie", cookies.set_header(cookies.issue()).encode()))
                message = {**message, "headers": headers}
            await send(message)

        return wrapped
