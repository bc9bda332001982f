"""Issue 19: the sign-in lockout and the page binding of the standalone approval service, over real HTTP.

Ten wrong keys from any local process must not make the person's fresh, unused link answer 429; the
limiter answers only the failures. The standalone `clauz3 approval-service` (a real process on 127.0.0.1)
binds its cookie to the page the same way the workspace does: the cookie alone reads and decides nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sessions_harness import running_service
from standalone_service import Standalone, standalone_service

PAGE_HEADER = "X-Clauz3-Page"
PAGE_TOKEN = re.compile(r'<meta name="clauz3-page" content="([A-Za-z0-9._-]+)">')


@pytest.mark.parametrize("wrong", [10, 30])
async def test_a_valid_fresh_key_redeems_after_wrong_ones_and_only_once(tmp_path: Path, wrong: int) -> None:
    async with running_service(tmp_path) as svc, svc.client() as c:
        for i in range(wrong):
            assert (await c.get(f"/ui/login?key=bad{i:03d}{'y' * 40}")).status_code in (401, 429)
        assert (await c.get("/ui/login?key=one-more-wrong-key-xxxxxxxxxxxxxxxxxxxxxxxxxx")).status_code == 429
        key = svc.service.sign_in.tokens.new()
        redeemed = await c.get(f"/ui/login?key={key}")
        assert redeemed.status_code == 200, redeemed.text
        assert svc.cookie_name in redeemed.headers.get("set-cookie", "")
        assert PAGE_TOKEN.search(redeemed.text)
        again = await c.get(f"/ui/login?key={key}")
        assert again.status_code in (401, 429) and svc.cookie_name not in again.headers.get("set-cookie", "")


async def test_the_workspace_cookie_alone_is_refused_and_with_its_page_secret_accepted(tmp_path: Path) -> None:
    async with running_service(tmp_path) as svc, svc.client() as c:
        key = svc.service.sign_in.tokens.new()
        redeemed = await c.get(f"/ui/login?key={key}")
        assert redeemed.status_code == 200
        assert "location" not in redeemed.headers  # the page replaces the address itself (no key left)
        match = PAGE_TOKEN.search(redeemed.text)
        assert match is not None
        secret = match.group(1)
        cookie = redeemed.cookies[svc.cookie_name]
        c.cookies.clear()  # every request below names its credentials itself
        assert secret not in redeemed.headers.get("set-cookie", "") and secret != cookie
        jar = {"Cookie": f"{svc.cookie_name}={cookie}", "Origin": svc.base}
        for path in ("/api/requests", "/api/workspaces"):
            assert (await c.get(path, headers=jar)).status_code == 401, path
            assert (await c.get(path, headers={**jar, PAGE_HEADER: secret})).status_code == 200, path
        # the secret without the cookie is nothing either
        assert (await c.get("/api/workspaces", headers={"Origin": svc.base, PAGE_HEADER: secret})).status_code == 401
        # pages and assets load with the cookie (a reload cannot add a header); they hold no data
        assert (await c.get("/ui", headers=jar)).status_code == 200
        assert (await c.get("/ui/assets/app.js", headers=jar)).status_code == 200


@pytest.fixture
def standalone(tmp_path: Path) -> Iterator[Standalone]:
    with standalone_service(tmp_path) as service:
        yield service


def test_the_standalone_cookie_alone_reads_and_decides_nothing(standalone: Standalone) -> None:
    with httpx.Client(timeout=90.0, base_url=standalone.base, trust_env=False) as c:
        for i in range(11):
            c.get(f"/ui/login?key=wrong{i:02d}{'z' * 40}")
        redeemed = c.get(f"/ui/login?key={standalone.approver}")  # the person's link still works
        assert redeemed.status_code == 200, redeemed.text
        match = PAGE_TOKEN.search(redeemed.text)
        assert match is not None
        secret = match.group(1)
        name = next(iter(redeemed.cookies))
        jar = {"Cookie": f"{name}={redeemed.cookies[name]}", "Origin": standalone.base}
        c.cookies.clear()
        assert c.get("/api/profile", headers=jar).status_code == 401
        for path in ("/api/requests", "/api/service"):
            assert c.get(path, headers=jar).status_code == 401, path
            assert c.get(path, headers={**jar, PAGE_HEADER: secret}).status_code == 200, path
        refused = c.post("/api/requests/req_00000001/decision", headers=jar, json={"decision": "approved_once"})
        assert refused.status_code == 401
        assert c.post("/ui/logout", headers=jar).status_code == 401  # nobody else signs the person out
        # the HTML pages carry no data without the secret; with it they render
        shell = c.get("/ui", headers=jar)
        assert shell.status_code == 200 and "Approval requests</h1>" not in shell.text
        full = c.get("/ui", headers={**jar, PAGE_HEADER: secret})
        assert full.status_code == 200 and "Approval requests</h1>" in full.text
        # the bearer approver token keeps working for scripts (03 API-1)
        assert c.get("/api/requests", headers={"Authorization": f"Bearer {standalone.approver}"}).status_code == 200


async def test_a_socket_without_the_page_secret_gets_nothing_and_displaces_no_tab(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import json

    import websockets
    from sessions_harness import recv, signed_in

    from clauz3.sessions.web import ws as ws_module

    monkeypatch.setattr(ws_module, "HELLO_SECONDS", 1.0)  # a silent socket is closed after this long
    async with signed_in(tmp_path) as svc:
        holder = await svc.ws()
        assert (await recv(holder))["method"] == "clauz3/restore"
        # the cookie alone, asking to take the workspace over: silent, or a hello with a wrong secret
        for first in (None, json.dumps({"method": "clauz3/hello", "params": {"page": svc.cookie}})):
            intruder = await svc.ws(takeover=True, hello=False)
            if first is not None:
                await intruder.send(first)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    frame = json.loads(await asyncio.wait_for(intruder.recv(), 60))
                    assert frame["method"] != "clauz3/restore", frame
            assert intruder.close_code == 1008 and intruder.close_reason == "Not signed in"
        # the signed-in page's socket is still the subscriber and still answered
        await holder.send(json.dumps({"method": "clauz3/rename", "params": {"id": "nope", "title": "x"}}))
        answered = await recv(holder, 30)
        assert answered["method"] in ("clauz3/notice", "clauz3/state", "clauz3/conversations"), answered
        assert not holder.close_code
        await holder.close()
