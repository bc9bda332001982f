"""QB-10 and 03 §3: every route, table-driven over the component's own route list."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.routing import Route

from clauz3.approvals.app import ApprovalHTTP
from clauz3.approvals.cookies import SessionCookies
from clauz3.approvals.transport import RouteSpec

from .conftest import BASE, PORT, Harness, make_request

RID = "req_00000001"


def _path(spec: RouteSpec) -> str:
    return spec.path.replace("{request_id}", RID).replace("{name}", "approval-page.js")


def _call(h: Harness, spec: RouteSpec, headers: dict[str, str] | dict[str, bytes]):
    if spec.method == "GET":
        return h.client.get(_path(spec), headers=headers, follow_redirects=False)
    return h.client.post(_path(spec), content=b"{}", headers={"Content-Type": "application/json", **headers},
                         follow_redirects=False)


def _no_data(response) -> None:
    text = response.text
    for secret in ("program", RID, "requests", "verify_key_id", "rules", "ok\":true"):
        assert secret not in text, (response.request.url, text[:200])


@pytest.fixture
def h(harness: Harness) -> Harness:
    assert harness.submit(make_request(harness.project, request_id=RID)).status_code == 201
    return harness


def test_route_table_covers_every_mounted_route(h: Harness) -> None:
    mounted = {(m, r.path) for r in h.app.routes if isinstance(r, Route) for m in (r.methods or []) if m != "HEAD"}
    assert mounted == {(s.method, s.path) for s in h.http.route_specs()}


def test_no_credentials_gives_401_everywhere_but_health(h: Harness) -> None:
    for spec in h.http.route_specs():
        response = _call(h, spec, {"Origin": BASE})
        if spec.cred == "none":
            assert response.status_code == 200 and response.json() == {"ok": True}
            continue
        assert response.status_code == 401, spec
        assert "set-cookie" not in response.headers
        if spec.cred != "key":
            assert response.headers["www-authenticate"] == "Bearer"
        _no_data(response)
    assert h.authority.lookup(h.authority.submitter_for(h.token), RID).state == "pending"


@pytest.mark.parametrize("host", ["evil.example", f"127.0.0.1:{PORT + 1}", "evil.example:8765", "", "[::2]:8765",
                                  f"localhost:{PORT}0"])
def test_wrong_host_gives_400_everywhere(h: Harness, host: str) -> None:
    for spec in h.http.route_specs():
        headers = {**h.appr(), **h.sub(), "Host": host} if spec.cred != "C" else {**h.cookie(), "Host": host}
        response = _call(h, spec, headers)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_host", spec
        _no_data(response)
    unrouted = h.client.get("/nowhere", headers={"Host": host})
    assert unrouted.status_code == 400


def test_loopback_host_spellings_are_accepted(h: Harness) -> None:
    for host in (f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"[::1]:{PORT}"):
        assert h.client.get("/health", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", f"http://127.0.0.1:{PORT + 1}", "null",
                                    f"https://127.0.0.1:{PORT}"])
def test_foreign_origin_gives_403_everywhere(h: Harness, origin: str) -> None:
    for spec in h.http.route_specs():
        headers = {**h.cookie(), **h.appr(), **h.sub(), "Origin": origin}
        response = _call(h, spec, headers)
        assert response.status_code == 403 and response.json()["error"]["code"] == "origin_not_allowed", spec
        _no_data(response)
    assert h.authority.lookup(h.authority.submitter_for(h.token), RID).state == "pending"


def test_cross_site_fetch_is_refused(h: Harness) -> None:
    response = h.client.get("/api/service", headers={**h.appr(), "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403


def _cookie_routes(h: Harness) -> list[RouteSpec]:
    return [s for s in h.http.route_specs() if s.cred in ("A", "SA", "C")]


def test_forged_expired_and_foreign_cookies_give_401(h: Harness, tmp_path: Path) -> None:
    import time

    other_dir = SessionCookies(tmp_path / "other-data", str(h.project))
    other_project = SessionCookies(h.cookies.data, str(tmp_path))
    good = h.cookies.issue()
    forged = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    cases = {
        "forged": forged,
        "expired": h.cookies.issue(now=time.time() - 12 * 3600 - 5),
        "future": h.cookies.issue(now=time.time() + 3600),
        "other data dir": other_dir.issue(),
        "other project": other_project.issue(),
        "garbage": "v1.x.y.z.w",
        "non-ascii": "v1.é",
    }
    for spec in _cookie_routes(h):
        for name, value in cases.items():
            headers = {"Cookie": f"{h.cookies.name}={value}".encode(), "Origin": BASE.encode()}
            response = _call(h, spec, headers)
            assert response.status_code == 401, (spec, name)
            _no_data(response)
        # Issue 19: a genuine cookie without the page secret (a cookie another port received) gets nothing
        alone = _call(h, spec, {"Cookie": f"{h.cookies.name}={h.cookies.issue()}", "Origin": BASE})
        if spec.method == "GET" and spec.cred == "C":
            assert alone.status_code == 200, spec  # a page shell or an asset: no data
        else:
            assert alone.status_code == 401, spec
        if spec.path != "/ui/assets/{name}":  # static code, the same for everyone
            _no_data(alone)
        # a genuine cookie with its page's secret works on the same route (logout bumps the generation,
        # so mint per route)
        ok = _call(h, spec, h.cookie())
        assert ok.status_code != 401, spec


def test_cookie_mutation_without_origin_and_wrong_media_type(h: Harness) -> None:
    cookie = {k: v for k, v in h.cookie().items() if k != "Origin"}
    url = f"/api/requests/{RID}/decision"
    response = h.client.post(url, json={"decision": "approved_once"}, headers=cookie)
    assert response.status_code == 403 and response.json()["error"]["code"] == "origin_required"
    response = h.client.post(url, content=b'{"decision":"approved_once"}',
                             headers={**cookie, "Origin": BASE, "Content-Type": "text/plain"})
    assert response.status_code == 415
    assert h.authority.lookup(h.authority.submitter_for(h.token), RID).state == "pending"
    response = h.client.post(url, json={"decision": "approved_once"}, headers={**cookie, "Origin": BASE})
    assert response.status_code == 200 and response.json()["state"] == "approved"


def test_credentials_are_not_interchangeable(h: Harness) -> None:
    wrong = h.client.post(f"/api/requests/{RID}/decision", json={"decision": "approved_once"}, headers=h.sub())
    assert wrong.status_code == 401
    assert h.authority.lookup(h.authority.submitter_for(h.token), RID).state == "pending"
    body = make_request(h.project, request_id="req_00000002")
    assert h.client.post("/api/requests", json=body, headers=h.appr()).status_code == 401
    for bad in ("Bearer é".encode(), b"Bearer " + b"x" * 600, b"Bearer \xff\xfe"):
        response = h.client.get(f"/api/requests/{RID}", headers={"Authorization": bad})
        assert response.status_code == 401


def test_other_conversation_gets_404(harness: Harness) -> None:
    h = harness
    other = h.authority.register_conversation("conv-b", *_roots(h))
    assert h.submit(make_request(h.project, request_id=RID)).status_code == 201
    response = h.client.get(f"/api/requests/{RID}", headers={"Authorization": f"Bearer {other}"})
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def _roots(h: Harness) -> tuple[list[str], list[str]]:
    from .conftest import roots

    return roots(h.project)


def test_security_headers_on_every_response(h: Harness) -> None:
    for spec in h.http.route_specs():
        response = _call(h, spec, {"Origin": BASE})
        assert response.headers["cache-control"] == "no-store"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-content-type-options"] == "nosniff"
    page = h.client.get("/ui", headers=h.cookie())
    assert page.status_code == 200 and page.headers["x-frame-options"] == "DENY"
    assert "<script>" not in page.text


def test_standalone_login(h: Harness) -> None:
    bad = h.client.get(f"/ui/login?key={h.token}", follow_redirects=False)
    assert bad.status_code == 401 and "Approver sign-in required" in bad.text and "set-cookie" not in bad.headers
    good = h.client.get(f"/ui/login?key={h.approver}", follow_redirects=False)
    # issue 19: 200 with the page secret; the page's script replaces the address with /ui
    assert good.status_code == 200 and "location" not in good.headers and "location.replace('/ui')" in good.text
    secret = good.text.split('name="clauz3-page" content="', 1)[1].split('"', 1)[0]
    assert h.cookies.verify_page(secret) and h.approver not in good.text
    cookie = good.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and h.approver not in cookie and secret not in cookie
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    page = {"Cookie": f"{h.cookies.name}={value}", "X-Clauz3-Page": secret}
    assert h.client.get("/ui", headers=page).status_code == 200
    # a new SessionCookies on the same data dir (a restart) accepts it
    again = SessionCookies(h.cookies.data, str(h.project))
    assert again.verify(value) is not None
    # logout bumps the generation: the cookie stops working, also after a restart
    out = h.client.post("/ui/logout", headers={**page, "Origin": BASE}, follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"] == "/ui/login"
    assert h.client.get("/ui", headers={"Cookie": f"{h.cookies.name}={value}"}).status_code == 401
    assert not h.cookies.verify_page(secret)
    assert SessionCookies(h.cookies.data, str(h.project)).verify(value) is None


def test_login_rate_limit(h: Harness) -> None:
    codes = [h.client.get("/ui/login?key=wrong", follow_redirects=False).status_code for _ in range(11)]
    assert codes[:10] == [401] * 10 and codes[10] == 429
    # issue 19: the limiter answers failures only; the approver's own link still signs in
    assert h.client.get(f"/ui/login?key={h.approver}", follow_redirects=False).status_code == 200
    assert h.client.get("/ui/login?key=wrong", follow_redirects=False).status_code == 429


def test_host_mode_component_without_ui(harness: Harness) -> None:
    http = ApprovalHTTP(harness.authority, harness.cookies, include_ui=False, port=PORT)
    paths = {s.path for s in http.route_specs()}
    assert "/ui" not in paths and "/health" not in paths and "/api/requests" in paths
    assert all(s.cred != "none" for s in http.route_specs())
