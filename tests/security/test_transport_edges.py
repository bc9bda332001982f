"""03 transport acceptance on the workspace service: WebSocket origins (1008) and non-ASCII credentials (401)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import websockets
from sessions_harness import Harness, signed_in


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path) as harness:
        yield harness


def other_port(port: int) -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        found = sock.getsockname()[1]
    return found if found != port else port + 1


async def close_code(ws: websockets.ClientConnection) -> int | None:
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return ws.close_code


@pytest.mark.parametrize("origin", ["foreign", "other-port", "localhost-name", "none"])
async def test_websocket_upgrade_with_a_wrong_origin_is_closed_1008(svc: Harness, origin: str) -> None:
    chosen = {"foreign": "http://evil.example", "other-port": f"http://127.0.0.1:{other_port(svc.port)}",
              "localhost-name": f"http://localhost:{svc.port}", "none": None}[origin]
    ws = await svc.ws(origin=chosen)
    assert await close_code(ws) == 1008
    # the same cookie with the service's own origin is accepted: the origin alone made the difference
    good = await svc.ws()
    first = await asyncio.wait_for(good.recv(), 10)
    assert "clauz3/restore" in first
    await good.close()


async def test_non_ascii_cookie_and_tokens_are_401_not_500(svc: Harness) -> None:
    name = svc.cookie_name
    async with svc.client() as c:
        for value in ("é" * 8, "v1.é.x", svc.cookie + "é"):  # type: ignore[operator]
            response = await c.get("/api/workspaces", headers={"Cookie": f"{name}={value}".encode()})
            assert response.status_code == 401, value
        for header in ("Bearer é".encode(), b"Bearer \xff\xfe\xfd"):
            response = await c.get("/api/workspaces", headers={"Authorization": header})
            assert response.status_code == 401
        login = await c.get("/ui/login", params={"key": "é" * 43})
        assert login.status_code == 401 and name not in login.headers.get("set-cookie", "")
        login = await c.get("/ui/login?key=%FF%FE")
        assert login.status_code == 401
        for secret in ("é" * 8, svc.page_secret + "é", "p1.é.0.x"):  # type: ignore[operator]
            response = await c.get("/api/workspaces", headers={"Cookie": f"{name}={svc.cookie}",
                                                               "X-Clauz3-Page": secret.encode()})
            assert response.status_code == 401, secret
        ok = await c.get("/api/workspaces", headers={"Cookie": f"{name}={svc.cookie}", **svc.page()})
        assert ok.status_code == 200
    # a socket presenting a non-ASCII cookie is refused too, never an internal error
    url = f"ws://127.0.0.1:{svc.port}/api/chat/acp"
    ws = await websockets.connect(url, origin=svc.origin, additional_headers={"Cookie": f"{name}=é"},  # type: ignore[arg-type]
                                  open_timeout=5)
    assert await close_code(ws) == 1008
