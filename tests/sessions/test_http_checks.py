"""Request checks and HTTP rules of the workspace (02 §3, AUTH-*, HTTP-*)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
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
        with_cookie = await c.get(path, cookies=svc.cookies())
    assert bare.status_code == 401 and bearer.status_code == 401
    assert with_cookie.status_code == 200, with_cookie.text
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
        assert first.status_code == 303 and reused.status_code == 401 and submission.status_code == 401
        assert "Press Enter in the terminal running clauz3 ui" in reused.text
        for _ in range(9):
            await c.get("/ui/login?key=wrong")
        assert (await c.get("/ui/login?key=wrong")).status_code == 429
    cookie = first.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Max-Age=43200" in cookie


async def test_login_token_expires(svc: Harness) -> None:
    tokens = svc.service.sign_in.tokens
    token = tokens.new(now=0.0)
    assert not tokens.consume(token)  # issued at t=0 on the monotonic clock: long expired
    fresh = tokens.new()
    assert tokens.consume(fresh)


async def test_no_internal_error_leaks(svc: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("secret detail /etc/shadow")

    monkeypatch.setattr(svc.host.store, "listing", boom)
    async with httpx.AsyncClient(base_url=svc.base, trust_env=False) as c:
        response = await c.get("/api/chat/conversations", cookies=svc.cookies())
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal", "message": "Something went wrong; nothing was changed."}}
