"""Issue 19 class 5 and the sign-in lockout, through the real path.

Browsers send 127.0.0.1 cookies to every port of 127.0.0.1 (a site has no port), so any local listener the
person's browser visits receives the approver cookie. The tests sign a real Chromium page in to a real
service on 127.0.0.1, let that browser visit a second local listener, take the cookie the listener really
received and replay it, with a forged Origin, to the approver API and the chat WebSocket: refused (401 /
1008), because the credential also needs the per-page secret only the signed-in page holds. The page itself
keeps working, also after a reload. And ten wrong sign-in keys from another process never lock the person's
fresh link out.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from browser_harness import ARGS, CHROMIUM, needs_chromium, open_page
from sessions_harness import PageOnlyBridge
from standalone_service import Standalone, standalone_service

PAGE_HEADER = "X-Clauz3-Page"
STORAGE_KEY = "clauz3-page"


@contextlib.asynccontextmanager
async def listener() -> AsyncIterator[tuple[int, list[dict[str, str]]]]:
    """A second local HTTP listener (the attacker's): records each request's headers, answers a tiny page."""
    seen: list[dict[str, str]] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
            lines = head.decode("latin-1").split("\r\n")[1:]
            seen.append({k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines if x)})
            body = b"<!doctype html><title>elsewhere</title><p>nothing here</p>"
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], seen
    finally:
        server.close()
        await server.wait_closed()


def received_cookie(seen: list[dict[str, str]], name: str) -> str:
    for headers in seen:
        for part in headers.get("cookie", "").split(";"):
            key, _, value = part.strip().partition("=")
            if key == name and value:
                return value
    raise AssertionError(f"the listener never received the {name} cookie: {seen}")


async def ws_close_code(ws: websockets.ClientConnection) -> int | None:
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            frame = await asyncio.wait_for(ws.recv(), 60)
            assert "clauz3/restore" not in str(frame), "a replayed cookie got the chat socket"
    return ws.close_code


async def replay_is_refused(port: int, name: str, cookie: str) -> None:
    """The stolen cookie, with the service's own Origin forged, against the approver API and the socket."""
    base = f"http://127.0.0.1:{port}"
    forged = {"Cookie": f"{name}={cookie}", "Origin": base, "Sec-Fetch-Site": "same-origin"}
    async with httpx.AsyncClient(timeout=90.0, base_url=base, trust_env=False) as c:
        for path in ("/api/requests?state=pending", "/api/profile", "/api/service", "/api/workspaces",
                     "/api/chat/conversations", "/api/workspace/files?path="):
            response = await c.get(path, headers=forged)
            assert response.status_code == 401, (path, response.status_code, response.text[:200])
        for path, body in (("/api/profile/disable", {"rule_id": "r"}), ("/api/chat/handoff", {"conversation_id": "x"}),
                           ("/api/requests/req_00000001/decision", {"decision": "approved_once"})):
            response = await c.post(path, headers=forged, json=body)
            assert response.status_code == 401, (path, response.status_code, response.text[:200])
        # a made-up page secret does not help either
        response = await c.get("/api/requests", headers={**forged, PAGE_HEADER: "p1.0.0.AAAA"})
        assert response.status_code == 401
    url = f"ws://127.0.0.1:{port}/api/chat/acp"
    for first in (None, {"method": "clauz3/hello", "params": {"page": "p1.00.0.AAAA"}},
                  {"method": "clauz3/hello", "params": {}}):
        ws = await websockets.connect(url, origin=base, additional_headers={"Cookie": f"{name}={cookie}"},  # type: ignore[arg-type]
                                      open_timeout=10)
        if first is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps(first))
        else:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps({"method": "session/prompt", "params": {"prompt": []}}))
        assert await ws_close_code(ws) == 1008, first


pytestmark = needs_chromium


async def test_a_cookie_another_port_received_is_useless_and_the_page_keeps_working(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge(), sign_in=False) as s, listener() as (other, seen):
        page = s.page
        # (c) Ten wrong keys from another local process first: the person's fresh link still signs in.
        async with httpx.AsyncClient(timeout=90.0, base_url=s.svc.base, trust_env=False) as c:
            for i in range(11):
                wrong = await c.get(f"/ui/login?key=wrong{i:02d}{'x' * 36}")
            assert wrong.status_code == 429  # the limiter still answers the guesser
        await s.sign_in()
        await expect(page.locator("#status-text")).to_have_text("Ready", timeout=60_000)
        name = s.svc.cookie_name
        # The page secret stays in the tab: not in the address bar, not in a cookie.
        secret = await page.evaluate(f"sessionStorage.getItem({json.dumps(STORAGE_KEY)})")
        assert isinstance(secret, str) and len(secret) > 30
        assert page.url == f"{s.svc.base}/ui"
        assert all(secret not in c["value"] for c in await s.context.cookies())
        assert secret not in await page.content()
        # the sign-in entry was replaced: the tab's history is the blank start page and /ui, no key
        assert await page.evaluate("history.length") == 2
        # (a) The person's browser visits another local port (a link in the agent's reply is enough) ...
        tab = await s.context.new_page()
        await tab.goto(f"http://127.0.0.1:{other}/")
        await tab.close()
        cookie = received_cookie(seen, name)  # ... and the browser really sends it the approver cookie.
        assert secret not in json.dumps(seen)
        await replay_is_refused(s.svc.port, name, cookie)
        # (b) The signed-in page still works, also after a reload in the same tab.
        await page.reload()
        await expect(page.locator("#status-text")).to_have_text("Ready", timeout=60_000)
        await expect(page.locator("#banner")).to_be_hidden()
        listed = await page.evaluate(
            "fetch('/api/requests?state=pending', {headers: {'X-Clauz3-Page': sessionStorage.getItem('clauz3-page')}})"
            ".then((r) => r.status)")
        assert listed == 200
        await page.get_by_role("link", name="Approvals").click()
        await expect(page.get_by_role("heading", name="Remembered decisions")).to_be_visible(timeout=60_000)
        # A new tab (the same cookie, typed address, no page secret) is asked to sign in, not let in ...
        fresh = await s.context.new_page()
        await fresh.goto(f"{s.svc.base}/ui")
        await expect(fresh.locator("#banner")).to_contain_text("Open the sign-in link", timeout=60_000)
        await fresh.close()
        # ... and the first tab was not displaced by it.
        await expect(page.locator("#status-text")).to_have_text("Ready", timeout=60_000)
        await expect(page.locator("#banner")).to_be_hidden()
        s.clean()


PROGRAM = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''


def proved_request(project: Path) -> dict[str, object]:
    """A request as a bridge builds it, from the real prover (the authority proves it again itself)."""
    path = project.parent / "program.py"
    path.write_text(PROGRAM)
    trusted = str(project / "tools" / "email" / "trusted")
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--trusted-root", trusted,
                          "--import-root", str(project), str(path)], cwd=project, capture_output=True, text=True,
                         timeout=300, env={k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")})
    entry = json.loads(out.stdout)["entries"][0]
    keys = ("domain", "status", "missing_required", "missing_recommended")
    return {
        "schema_version": 1, "kind": "clauz3.run", "request_id": "req_00000001", "program": PROGRAM,
        "program_sha256": hashlib.sha256(PROGRAM.encode()).hexdigest(), "source_name": "<stdin>",
        "target": "main", "trusted_roots": [trusted], "import_roots": [str(project)],
        "guarantees": [o["expression"] for o in entry["obligations"] if o["kind"] == "guarantee"],
        "coverage": [{k: c[k] for k in keys} for c in entry["coverage"]],
        "proofs": [{"name": "main", "conclusion": o["conclusion"], "description": o["description"]}
                   for o in entry["obligations"]],
        "execution_timeout_seconds": 60,
        "sandbox": {"mode": "unavailable", "detail": "tests", "extra_read": [], "extra_write": []},
    }


@pytest.fixture
def standalone(tmp_path: Path) -> Iterator[Standalone]:
    with standalone_service(tmp_path) as service:
        yield service


async def test_the_standalone_approval_page_is_bound_to_its_page_too(tmp_path: Path, standalone: Standalone) -> None:
    """`clauz3 approval-service` (a real process): Chromium signs in with the printed link and approves
    from the request page; the cookie the browser also sends to another port reads and decides nothing."""
    from playwright.async_api import async_playwright, expect

    sub = {"Authorization": f"Bearer {standalone.submission}"}
    with httpx.Client(timeout=90.0, base_url=standalone.base, trust_env=False) as c:
        created = c.post("/api/requests", json=proved_request(standalone.project), headers=sub)
        assert created.status_code == 201, created.text

    async def submitter_waits() -> str:
        """The submitter keeps a wait open (REQ-3: else its request is cancelled as gone)."""
        async with httpx.AsyncClient(base_url=standalone.base, trust_env=False, timeout=90) as c:
            while True:
                state = (await c.get("/api/requests/req_00000001?wait=20", headers=sub)).json()["state"]
                if state != "pending":
                    return str(state)

    waiting = asyncio.create_task(submitter_waits())
    async with async_playwright() as pw, listener() as (other, seen):
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = await browser.new_context()
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            await page.goto(f"{standalone.base}/ui/login?key={standalone.approver}")
            await page.wait_for_url(f"{standalone.base}/ui", timeout=60_000)
            await expect(page.get_by_role("heading", name="Approval requests")).to_be_visible(timeout=60_000)
            tab = await context.new_page()
            await tab.goto(f"http://127.0.0.1:{other}/")
            await tab.close()
            cookies = await context.cookies()
            name = cookies[0]["name"]
            cookie = received_cookie(seen, name)
            forged = {"Cookie": f"{name}={cookie}", "Origin": standalone.base}
            async with httpx.AsyncClient(timeout=90.0, base_url=standalone.base, trust_env=False) as c:
                assert (await c.get("/api/requests", headers=forged)).status_code == 401
                shell = await c.get("/ui/requests/req_00000001", headers=forged)
                assert shell.status_code == 200 and "bob@example.com" not in shell.text
                refused = await c.post("/api/requests/req_00000001/decision", headers=forged,
                                       json={"decision": "rejected"})
                assert refused.status_code == 401
            await page.locator("ul li a").first.click()
            await expect(page.get_by_role("heading", name="Run main pending")).to_be_visible(timeout=60_000)
            await page.reload()  # the same tab keeps its secret
            await page.get_by_role("button", name="Approve", exact=True).click()
            await expect(page.get_by_text("Approved once").first).to_be_visible(timeout=60_000)
            assert errors == []
        finally:
            await browser.close()
    assert await asyncio.wait_for(waiting, 60) == "approved"
