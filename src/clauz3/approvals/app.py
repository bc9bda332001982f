"""The authority's Starlette component (03 §4, LIFE-6): routes over :class:`ApprovalAuthority`.

``ApprovalHTTP(authority, cookies, ...)`` holds the edge state (cookie signer, approver token,
login limiter); ``http.routes()`` can be mounted in the host app, ``build_app(http)`` serves them
alone. Every route goes through :meth:`ApprovalHTTP.guard` with its :class:`RouteSpec`.

This is the authority's HTTP edge: each JSON body is read here once and parsed into the typed
value the core takes (:func:`parse_request`, :func:`parse_decision_body`, a profile id), and
error codes become HTTP statuses here (:mod:`clauz3.approvals.statuses`), nowhere else.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from clauz3.approvals import ui
from clauz3.approvals.authority import ApprovalAuthority
from clauz3.approvals.cookies import PAGE_HEADER, REISSUE_AFTER_SECONDS, LoginLimiter, SessionCookies
from clauz3.approvals.decisions import parse_decision_body
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.principals import Principal
from clauz3.approvals.requests import FINAL_STATES, PENDING, parse_request
from clauz3.approvals.signin_landing import HEADERS as LANDING_HEADERS
from clauz3.approvals.signin_landing import landing_page
from clauz3.approvals.statuses import http_status
from clauz3.approvals.tokens import secrets_equal
from clauz3.approvals.transport import (
    HTML_HEADERS,
    LOOPBACK_HOSTNAMES,
    SAFE_METHODS,
    SECURITY_HEADERS,
    RouteSpec,
    bearer_token,
    check_host,
    check_origin_present,
    cookie_value,
    read_json,
)

ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("GET", "/health", "none"),
    RouteSpec("GET", "/ui/login", "key"),
    RouteSpec("POST", "/ui/logout", "C"),
    RouteSpec("GET", "/ui", "C"),
    RouteSpec("GET", "/ui/requests/{request_id}", "C"),
    RouteSpec("GET", "/ui/profile", "C"),
    RouteSpec("GET", "/ui/assets/{name}", "C"),
    RouteSpec("GET", "/api/service", "A"),
    RouteSpec("POST", "/api/requests", "S", json_body=True),
    RouteSpec("GET", "/api/requests", "A"),
    RouteSpec("GET", "/api/requests/{request_id}", "SA"),
    RouteSpec("POST", "/api/requests/{request_id}/decision", "A", json_body=True),
    RouteSpec("POST", "/api/requests/{request_id}/cancel", "S", json_body=True),
    RouteSpec("GET", "/api/profile", "A"),
    RouteSpec("POST", "/api/profile/remember", "A", json_body=True),
    RouteSpec("POST", "/api/profile/disable", "A", json_body=True),
)

LIST = RouteSpec("GET", "/api/requests", "A")
# CLI-8: the mock serves these only; its list is read with the submission token (own requests).
MOCK_LIST = RouteSpec("GET", "/api/requests", "S")
MOCK_ROUTES = frozenset({("GET", "/health"), ("POST", "/api/requests"), ("GET", "/api/requests"),
                         ("GET", "/api/requests/{request_id}"), ("POST", "/api/requests/{request_id}/cancel")})
# In host mode the session host serves these itself (02 §3.4); the rest is mounted from here.
HOST_OWNED = frozenset({"/health", "/ui", "/ui/login", "/ui/profile", "/ui/assets/{name}"})

Handler = Callable[[Request, Principal | None, Any], Awaitable[Response]]


def error_response(exc: ApprovalError, *, html: bool = False) -> Response:
    status = http_status(exc.code)
    headers = dict(SECURITY_HEADERS)
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if html and status == 401:
        return HTMLResponse(ui.sign_in_page(), status_code=401, headers={**headers, **HTML_HEADERS})
    return JSONResponse(exc.body(), status_code=status, headers=headers)


def signed_in_response(cookies: SessionCookies) -> Response:
    """A redeemed sign-in link, in both modes: 200 with the session cookie and the page secret; the page's
    script goes on to ``/ui`` (issue 19; :mod:`clauz3.approvals.signin_landing`)."""
    response = HTMLResponse(landing_page(cookies.issue_page()), status_code=200, headers=LANDING_HEADERS)
    response.headers.append("set-cookie", cookies.set_header(cookies.issue()))
    return response


def profile_id(body: object, name: str) -> str:
    """The body of ``/api/profile/remember`` or ``…/disable``: exactly ``{name: <string ≤ 200>}``."""
    if type(body) is not dict or set(body) != {name}:
        raise ApprovalError("invalid_request", f"field {name}: the body must be {{{name}}}")
    value = body[name]
    if type(value) is not str or len(value) > 200:
        raise ApprovalError("invalid_request", f"field {name}: must be a string")
    return value


def _int_query(request: Request, name: str, lo: int, hi: int, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not lo <= int(raw) <= hi:
        raise ApprovalError("invalid_request", f"field {name}: must be an integer from {lo} to {hi}")
    return int(raw)


class ApprovalHTTP:
    def __init__(self, authority: ApprovalAuthority, cookies: SessionCookies, *,
                 approver_token: str | None = None, login_check: Callable[[str], bool] | None = None,
                 port: int | None = None, hostnames: tuple[str, ...] = LOOPBACK_HOSTNAMES,
                 include_ui: bool = True, mock: bool = False) -> None:
        """``approver_token``: standalone only. ``login_check``: the host's one-time login tokens."""
        self.authority = authority
        self.cookies = cookies
        self.approver_token = approver_token
        self.login_check = login_check
        self.port = port
        self.hostnames = hostnames
        self.include_ui = include_ui
        self.mock = mock
        self.limiter = LoginLimiter()

    # -------------------------------------------------------------------------------- guarding

    def _principal(self, request: Request, spec: RouteSpec) -> tuple[Principal | None, int | None]:
        """(principal, cookie issue time) for the route's credential kinds; (None, None) if none fits."""
        token = bearer_token(request)
        if token is not None and spec.cred in ("A", "SA") and spec.path.startswith("/api/") \
                and self.approver_token is not None and secrets_equal(token, self.approver_token):
            return Principal("approver", "bearer"), None
        if token is not None and spec.cred in ("S", "SA"):
            submitter = self.authority.submitter_for(token)
            if submitter is not None:
                return submitter, None
        if spec.cred in ("A", "SA", "C"):
            issued = self.cookies.verify(cookie_value(request, self.cookies.name))
            # Issue 19: the cookie reaches every port of the host, so it counts only with the page's secret;
            # HTML pages and assets (a navigation cannot add a header) load with it alone and show no data.
            if issued is not None and (self.page_bound(request) or (spec.cred == "C" and spec.method == "GET")):
                return Principal("approver", "cookie"), issued
        return None, None

    def page_bound(self, request: Request) -> bool:
        return self.cookies.verify_page(request.headers.get(PAGE_HEADER))

    def guard(self, spec: RouteSpec, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        html = spec.path.startswith("/ui") and spec.cred == "C" and spec.method == "GET"

        async def endpoint(request: Request) -> Response:
            try:
                host = check_host(request, port=self.port, hostnames=self.hostnames)
                check_origin_present(request, host)
                principal: Principal | None = None
                issued: int | None = None
                if spec.cred not in ("none", "key"):
                    principal, issued = self._principal(request, spec)
                    if principal is None:
                        raise ApprovalError("unauthenticated", "sign in or present a valid credential")
                    if request.method not in SAFE_METHODS and principal.via == "cookie" \
                            and request.headers.get("origin") is None:
                        raise ApprovalError("origin_required", "this request needs an Origin header")
                body = await read_json(request) if spec.json_body else None
                response: Response
                if html and spec.path != "/ui/assets/{name}" and not self.page_bound(request):
                    response = self._html(ui.shell_page())  # its script fetches this page with the secret
                else:
                    response = await handler(request, principal, body)
            except ApprovalError as exc:
                return error_response(exc, html=html)
            if issued is not None and time.time() - issued >= REISSUE_AFTER_SECONDS:
                response.headers.append("set-cookie", self.cookies.set_header(self.cookies.issue()))
            return response

        return endpoint

    def route_specs(self) -> list[RouteSpec]:
        """The guarded routes this component serves (the security tests iterate over these)."""
        if self.mock:
            return [MOCK_LIST if s == LIST else s for s in ROUTES if (s.method, s.path) in MOCK_ROUTES]
        return [s for s in ROUTES if self.include_ui or s.path not in HOST_OWNED]

    def routes(self) -> list[Route]:
        handlers: dict[tuple[str, str], Handler] = {
            ("GET", "/health"): self.health,
            ("GET", "/ui/login"): self.login,
            ("POST", "/ui/logout"): self.logout,
            ("GET", "/ui"): self.page_index,
            ("GET", "/ui/requests/{request_id}"): self.page_request,
            ("GET", "/ui/profile"): self.page_profile,
            ("GET", "/ui/assets/{name}"): self.asset,
            ("GET", "/api/service"): self.service,
            ("POST", "/api/requests"): self.submit,
            ("GET", "/api/requests"): self.list_requests,
            ("GET", "/api/requests/{request_id}"): self.get_request,
            ("POST", "/api/requests/{request_id}/decision"): self.decide,
            ("POST", "/api/requests/{request_id}/cancel"): self.cancel,
            ("GET", "/api/profile"): self.profile,
            ("POST", "/api/profile/remember"): self.remember,
            ("POST", "/api/profile/disable"): self.disable,
        }
        out: list[Route] = []
        for spec in self.route_specs():
            out.append(Route(spec.path, self.guard(spec, handlers[(spec.method, spec.path)]),
                             methods=[spec.method]))
        return out

    # ------------------------------------------------------------------------------ responses

    @staticmethod
    def _json(data: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)

    @staticmethod
    def _html(text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(text, status_code=status, headers={**SECURITY_HEADERS, **HTML_HEADERS})

    # ------------------------------------------------------------------------------- handlers

    async def health(self, request: Request, principal: Principal | None, body: Any) -> Response:
        return self._json({"ok": True})

    async def login(self, request: Request, principal: Principal | None, body: Any) -> Response:
        """API-2 as issue 19 narrows it: a valid key always signs in (the limiter answers failures only),
        and the answer hands the page its secret (:mod:`clauz3.approvals.signin_landing`)."""
        key = request.query_params.get("key", "")
        ok = False
        if key:
            if self.login_check is not None:
                ok = self.login_check(key)
            elif self.approver_token is not None:
                ok = secrets_equal(key, self.approver_token)
        if ok:
            return signed_in_response(self.cookies)
        if self.limiter.blocked():
            raise ApprovalError("too_many_attempts", "too many sign-in attempts; wait a minute")
        self.limiter.fail()
        return self._html(ui.sign_in_page(), status=401)

    async def logout(self, request: Request, principal: Principal | None, body: Any) -> Response:
        self.cookies.bump_generation()
        response = RedirectResponse("/ui/login", status_code=303, headers=SECURITY_HEADERS)
        response.headers.append("set-cookie", self.cookies.clear_header())
        return response

    async def page_index(self, request: Request, principal: Principal | None, body: Any) -> Response:
        records = [self.authority.view(Principal("approver", "cookie"), r) for r in self.authority.list(limit=200)]
        return self._html(ui.index_page(records))

    async def page_request(self, request: Request, principal: Principal | None, body: Any) -> Response:
        assert principal is not None
        record = self.authority.lookup(principal, request.path_params["request_id"])
        return self._html(ui.request_page(self.authority.view(principal, record)))

    async def page_profile(self, request: Request, principal: Principal | None, body: Any) -> Response:
        snapshot = self.authority.profile_snapshot() if self.authority.profiles is not None else None
        return self._html(ui.profile_page(snapshot))

    async def asset(self, request: Request, principal: Principal | None, body: Any) -> Response:
        found = ui.asset(request.path_params["name"])
        if found is None:
            raise ApprovalError("not_found", "no such asset")
        content, media = found
        return Response(content, media_type=media, headers=SECURITY_HEADERS)

    async def service(self, request: Request, principal: Principal | None, body: Any) -> Response:
        return self._json(self.authority.service_info())

    async def submit(self, request: Request, principal: Principal | None, body: Any) -> Response:
        assert principal is not None
        created, record = await self.authority.submit(principal, parse_request(body))
        return self._json(self.authority.view(principal, record), 201 if created else 200)

    async def list_requests(self, request: Request, principal: Principal | None, body: Any) -> Response:
        state = request.query_params.get("state") or None
        if state is not None and state != PENDING and state not in FINAL_STATES:
            raise ApprovalError("invalid_request", "field state: unknown state")
        conversation = request.query_params.get("conversation_id") or None
        limit = _int_query(request, "limit", 1, 500, 200)
        assert principal is not None
        records = self.authority.list(state=state, conversation_id=conversation, limit=limit,
                                      submitter_key=None if principal.is_approver else principal.submitter_key)
        return self._json({"requests": [self.authority.view(principal, r) for r in records]})

    async def get_request(self, request: Request, principal: Principal | None, body: Any) -> Response:
        assert principal is not None
        raw = request.query_params.get("wait")
        wait = 0.0
        if raw not in (None, ""):
            try:
                wait = float(raw)
            except ValueError:
                wait = -1.0
            if not 0 <= wait <= 60:
                raise ApprovalError("invalid_request", "field wait: must be 0 to 60 seconds")
        record = await self.authority.get(principal, request.path_params["request_id"], wait)
        return self._json(self.authority.view(principal, record))

    async def decide(self, request: Request, principal: Principal | None, body: Any) -> Response:
        assert principal is not None
        record = await self.authority.decide(request.path_params["request_id"], parse_decision_body(body),
                                             principal)
        return self._json(self.authority.view(principal, record))

    async def cancel(self, request: Request, principal: Principal | None, body: Any) -> Response:
        assert principal is not None
        if body != {}:
            raise ApprovalError("invalid_request", "the cancel body must be {}")
        record = await self.authority.cancel(principal, request.path_params["request_id"])
        return self._json(self.authority.view(principal, record))

    async def profile(self, request: Request, principal: Principal | None, body: Any) -> Response:
        limit = _int_query(request, "limit", 1, 500, 200)
        return self._json(self.authority.profile_snapshot(limit))

    async def remember(self, request: Request, principal: Principal | None, body: Any) -> Response:
        return self._json({"rule_id": self.authority.remember(profile_id(body, "history_id"))})

    async def disable(self, request: Request, principal: Principal | None, body: Any) -> Response:
        self.authority.disable(profile_id(body, "rule_id"))
        return self._json({"ok": True})


class _EdgeMiddleware:
    """Host check before routing (NET-2), uniform JSON for unrouted paths, and NET-8 headers."""

    def __init__(self, app: ASGIApp, http: ApprovalHTTP) -> None:
        self.app = app
        self.http = http

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        try:
            check_host(request, port=self.http.port, hostnames=self.http.hostnames)
        except ApprovalError as exc:
            await error_response(exc)(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.lower().encode(), v.encode()) for k, v in {**SECURITY_HEADERS, **HTML_HEADERS}.items()
                         if k.lower().encode() not in names and k != "Content-Security-Policy"]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    code = "method_not_allowed" if status == 405 else "not_found"
    return JSONResponse({"error": {"code": code, "message": "no such route"}}, status_code=status,
                        headers=SECURITY_HEADERS)


def _internal(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": {"code": "internal", "message": "Something went wrong; nothing was changed."}},
                        status_code=500, headers=SECURITY_HEADERS)


def build_app(http: ApprovalHTTP, *, on_shutdown: Callable[[], Awaitable[None]] | None = None) -> Starlette:
    """The standalone component: the routes, the edge middleware and JSON 404/405/500."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        await http.authority.close()
        if on_shutdown is not None:
            await on_shutdown()

    app = Starlette(routes=http.routes(), lifespan=lifespan,
                    exception_handlers={404: _not_found, 405: _not_found, 500: _internal})
    app.add_middleware(_EdgeMiddleware, http=http)
    return app


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
