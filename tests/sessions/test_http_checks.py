"""Request checks and HTTP rules of the workspace (02 §3, AUTH-*, HTTP-*)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import websockets
from sessions_harness import Harness, signed_in

API_GETS = ["/ui", "/ui/libraries", "/ui/profile", "/ui/assets/app.js", "/api/workspaces",
            "/api/chat/conversations", "/api/chat/transcript", "/api/workspace/files"]


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path) as harness:
        yield harness


def submission_token(svc: Harness) -> str:
    cid = svc.host.conversation.id
    return svc.host.authority.register_conversation(cid, [], [str(svc.host.project)])


async def test_health_needs_nothing_and_headers_are_set(svc: Harness) -> None:
    async with svc.client() as c:
        response = await c.get("/health")
    assert response.json() == {"ok": True}
    for header in ("cache-control", "x-content-type-options", "referrer-policy", "x-frame-options"):
        assert header in response.headers


@pytest.mark.parametrize("path", API_GETS)
async def test_every_route_needs_the_cookie(svc: Harness, path: str) -> None:
    async with svc.client() as c:
        bare = await c.get(path)
        bearer = await c.get(path, headers={"Authorization": f"Bearer {submission_token(svc)}"})
        cookie_only = await c.get(path, cookies=svc.cookies())
        with_cookie = await c.get(path, cookies=svc.cookies(), headers=svc.page())
    assert bare.status_code == 401 and bearer.status_code == 401
    assert with_cookie.status_code == 200, with_cookie.text
    # Issue 19: the API needs the page secret too; pages and assets load with the cookie (they hold no data).
    assert cookie_only.status_code == (401 if path.startswith("/api/") else 200), path
    if path.startswith("/ui") and "assets" not in path:
        assert "text/html" in bare.headers["content-type"]  # the sign-in page
        csp = with_cookie.headers["content-security-policy"]
        assert f"connect-src 'self' ws://127.0.0.1:{svc.port}" in csp
        assert "<script>" not in with_cookie.text and "style=" not in with_cookie.text


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:1", "evil.example", "127.0.0.1"])
async def test_foreign_host_is_400(svc: Harness, host: str) -> None:
    async with svc.client() as c:
        response = await c.get("/api/workspaces", cookies=svc.cookies(), headers={"Host": host.format(port=svc.port)})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_host"


async def test_cross_site_fetch_is_403(svc: Harness) -> None:
    async with svc.client() as c:
        response = await c.get("/api/workspaces", cookies=svc.cookies(), headers={"Sec-Fetch-Site": "cross-site"})
        page = await c.get("/ui", cookies=svc.cookies(), headers={"Sec-Fetch-Site": "none"})
    assert response.status_code == 403 and response.json()["error"]["code"] == "origin_not_allowed"
    assert page.status_code == 200


@pytest.mark.parametrize(("origin", "code"), [(None, "origin_required"), ("http://127.0.0.1:1", "origin_not_allowed"),
                                              ("http://localhost:{port}", "origin_not_allowed")])
async def test_mutations_need_our_origin(svc: Harness, origin: str | None, code: str) -> None:
    headers = {} if origin is None else {"Origin": origin.format(port=svc.port)}
    cid = svc.host.conversation.id
    async with svc.client() as c:
        response = await c.request("DELETE", f"/api/chat/conversations/{cid}", cookies=svc.cookies(), headers=headers)
    assert response.status_code == 403 and response.json()["error"]["code"] == code
    assert svc.host.store.get(cid) is not None


async def test_json_body_rules(svc: Harness) -> None:
    headers = {"Origin": svc.origin}
    async with svc.client(cookies=svc.cookies()) as c:
        plain = await c.post("/api/chat/handoff", content=b'{"conversation_id": "x"}',
                             headers={**headers, "Content-Type": "text/plain"})
        big = await c.post("/api/chat/handoff", content=b'{"a": "' + b"x" * 65_000 + b'"}',
                           headers={**headers, "Content-Type": "application/json"})
        bad = await c.post("/api/chat/handoff", content=b"{nope", headers={**headers, "Content-Type": "application/json"})
    assert plain.status_code == 415
    assert big.status_code == 413
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_request"


async def test_assets_allow_list(svc: Harness) -> None:
    async with svc.client(cookies=svc.cookies()) as c:
        good = await c.get("/ui/assets/app.js")
        for path in ("/ui/assets/../service.py", "/ui/assets/app.JS", "/ui/assets/index.html"):
            assert (await c.get(path)).status_code == 404, path
    assert good.headers["content-type"] == "text/javascript; charset=utf-8"


async def test_login_rules(svc: Harness) -> None:
    token = svc.service.sign_in.tokens.new()
    async with svc.client() as c:
        first = await c.get(f"/ui/login?key={token}")
        reused = await c.get(f"/ui/login?key={token}")
        submission = await c.get(f"/ui/login?key={submission_token(svc)}")
        # Issue 19: the redeemed link answers 200 with the page secret (no redirect: the page replaces the address)
        assert first.status_code == 200 and reused.status_code == 401 and submission.status_code == 401
        assert 'name="clauz3-page"' in first.text and "location.replace('/ui')" in first.text
        assert "script-src 'sha256-" in first.headers["content-security-policy"]
        assert "run <code>clauz3 link</code> in the project folder" in reused.text  # issue 12: what to do
        assert "<style>" in reused.text and "style-src 'sha256-" in reused.headers["content-security-policy"]
        for _ in range(9):
            await c.get("/ui/login?key=wrong")
        assert (await c.get("/ui/login?key=wrong")).status_code == 429
    cookie = first.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Max-Age=43200" in cookie


async def test_login_token_expires(svc: Harness) -> None:
    """AUTH-1's 15 minutes, counted from the token's issue on the service's own clock (not from the machine's
    boot: a token "issued at monotonic 0" is still live on a machine up for less than 15 minutes)."""
    from clauz3.sessions.web.auth import LOGIN_TTL_SECONDS

    tokens = svc.service.sign_in.tokens
    issued = time.monotonic()
    stale = tokens.new(now=issued - LOGIN_TTL_SECONDS - 1)  # issued 15 min 1 s ago
    assert not tokens.consume(stale)
    almost = tokens.new(now=issued - LOGIN_TTL_SECONDS + 60)  # issued 14 min ago: one minute left
    assert tokens.consume(almost)
    fresh = tokens.new()
    assert tokens.consume(fresh)
    assert not tokens.consume(fresh)  # single use


async def test_no_internal_error_leaks(svc: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("secret detail /etc/shadow")

    monkeypatch.setattr(svc.host.store, "listing", boom)
    async with httpx.AsyncClient(timeout=90.0, base_url=svc.base, trust_env=False) as c:
        response = await c.get("/api/chat/conversations", cookies=svc.cookies(), headers=svc.page())
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal", "message": "Something went wrong; nothing was changed."}}


# -- QB-10 over the app's own router: a new route without authentication fails here ---------------

PUBLIC = {("GET", "/health")}  # the only route that answers without a credential


def mounted_routes(svc: Harness) -> tuple[list[tuple[str, str]], list[str]]:
    """(method, path) of every HTTP route and the path of every WebSocket route the service mounts."""
    from starlette.routing import Route, WebSocketRoute

    app = svc.service.app.app  # inside the request-checks middleware
    http = [(m, r.path) for r in app.routes if isinstance(r, Route) for m in sorted(r.methods or ()) if m != "HEAD"]
    sockets = [r.path for r in app.routes if isinstance(r, WebSocketRoute)]
    other = [r for r in app.routes if not isinstance(r, Route | WebSocketRoute)]
    assert other == [], f"mounted routes the walker cannot call: {other}"
    return http, sockets


def concrete(path: str) -> str:
    return path.replace("{name}", "app.js").replace("{", "x-").replace("}", "")


def no_data(svc: Harness, response: httpx.Response) -> None:
    text = response.text
    for secret in (svc.host.conversation.id, str(svc.host.project), '"ok":true', '"runs"', '"rules"'):
        assert secret not in text, (response.request.method, response.request.url, text[:200])


async def socket_refused(svc: Harness, path: str, origin: str, headers: dict[str, str]) -> tuple[int, str]:
    """(close code, reason) of a WebSocket the service closes before sending it a single frame."""
    try:
        ws = await websockets.connect(f"ws://127.0.0.1:{svc.port}{path}", origin=origin, additional_headers=headers,
                                      open_timeout=5)
    except websockets.exceptions.InvalidStatus as exc:
        return exc.response.status_code, "refused at the handshake"
    try:
        frame = await asyncio.wait_for(ws.recv(), 10)
    except websockets.ConnectionClosed:
        assert ws.close_code is not None
        return ws.close_code, ws.close_reason or ""
    raise AssertionError(f"{path} sent data to an unauthenticated socket: {str(frame)[:200]}")


async def test_every_mounted_route_refuses_missing_forged_and_expired_cookies(svc: Harness) -> None:
    http, sockets = mounted_routes(svc)
    assert len(http) >= 30 and sockets == ["/api/chat/acp"], (http, sockets)  # the walker saw the real table
    expired = svc.service.sign_in.cookies.issue(now=0.0)
    forged = {svc.cookie_name: svc.cookie[:-4] + ("AAAA" if not svc.cookie.endswith("AAAA") else "BBBB")}
    async with svc.client() as c:
        for method, path in http:
            for cookies in ({}, forged, {svc.cookie_name: expired}):
                response = await c.request(method, concrete(path), cookies=cookies, headers={"Origin": svc.origin})
                if (method, path) in PUBLIC:
                    assert response.status_code == 200 and response.json() == {"ok": True}
                    continue
                assert response.status_code == 401, (method, path, cookies, response.status_code, response.text[:200])
                assert "set-cookie" not in response.headers, (method, path)
                no_data(svc, response)
    for path in sockets:
        for cookie in (None, expired, forged[svc.cookie_name]):
            headers = {"Cookie": f"{svc.cookie_name}={cookie}"} if cookie else {}
            assert await socket_refused(svc, path, svc.origin, headers) == (1008, "Not signed in"), path


async def test_every_mounted_route_refuses_a_foreign_host_and_every_mutation_a_foreign_origin(svc: Harness) -> None:
    http, sockets = mounted_routes(svc)
    foreign = ["http://evil.example", f"http://127.0.0.1:{svc.port + 1}", f"http://localhost:{svc.port}"]
    async with svc.client() as c:
        for method, path in http:
            response = await c.request(method, concrete(path), cookies=svc.cookies(),
                                       headers={"Origin": svc.origin, "Host": "evil.example"})
            assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_host", (method, path)
            no_data(svc, response)
            if method == "GET":
                continue
            for origin in foreign:
                response = await c.request(method, concrete(path), cookies=svc.cookies(), headers={"Origin": origin})
                assert response.status_code == 403, (method, path, origin, response.text[:200])
                no_data(svc, response)
    for path in sockets:
        cookie = {"Cookie": f"{svc.cookie_name}={svc.cookie}"}
        for origin in foreign:
            assert await socket_refused(svc, path, origin, cookie) == (1008, "Origin not allowed"), (path, origin)
