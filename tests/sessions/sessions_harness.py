"""An in-process workspace service on a real 127.0.0.1 socket, for the host's tests.

The service is built with :func:`build_service` in the test's event loop and served by uvicorn,
so tests can talk HTTP and WebSocket to it and also reach the in-process authority directly. The
demo agent runs for real. The bridge is the real one with ``bridge=None``; by default it is
:class:`PageOnlyBridge` (``fakes/page_only_bridge.py``: real lifetime handshake, nothing proved or run),
which is only for host and page mechanics that never depend on a proof or a run.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import re
import shutil
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from clauz3.approvals.tokens import generate_token
from clauz3.sessions.launch.config import LaunchConfig
from clauz3.sessions.web.service import Service, build_service

ROOT = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).resolve().parent / "fakes"


@dataclass(frozen=True)
class PageOnlyBridge:
    """The stand-in bridge: every guarantee "proved", nothing executed, every approved run "completed".
    Name it at each use so a reader sees which tests never touch the real prover and worker."""

    script: Path = FAKES / "page_only_bridge.py"
TUTORIAL = ROOT / "src" / "clauz3" / "tutorials" / "email"


class Harness:
    def __init__(self, service: Service, port: int, tmp: Path, log: Path) -> None:
        self.service = service
        self.port = port
        self.tmp = tmp
        self.log = log
        self.base = f"http://127.0.0.1:{port}"
        self.origin = self.base
        self.cookie: str | None = None
        self.page_secret: str | None = None

    @property
    def host(self) -> Any:
        return self.service.host

    @property
    def cookie_name(self) -> str:
        return self.service.sign_in.cookies.name

    def client(self, **kw: Any) -> httpx.AsyncClient:
        """A client; given the signed-in cookies it also sends the page secret, as the signed-in page does
        (issue 19). Tests of what the cookie alone gets pass ``page=False``."""
        page = kw.pop("page", True)
        if page and kw.get("cookies") and self.page_secret:
            kw["headers"] = {PAGE_HEADER: self.page_secret, **kw.get("headers", {})}
        kw.setdefault("timeout", 90.0)  # httpx's 5 s default fails a busy machine's slow route, not the product
        return httpx.AsyncClient(base_url=self.base, follow_redirects=False, trust_env=False, **kw)

    def page(self) -> dict[str, str]:
        """The page secret header, for tests that set the cookie header themselves."""
        assert self.page_secret is not None
        return {PAGE_HEADER: self.page_secret}

    async def login(self) -> str:
        token = self.service.sign_in.tokens.new()
        async with self.client() as c:
            response = await c.get(f"/ui/login?key={token}")
        self.cookie, self.page_secret = signed_in_answer(response, self.cookie_name)
        return self.cookie

    def cookies(self) -> dict[str, str]:
        assert self.cookie is not None
        return {self.cookie_name: self.cookie}

    async def ws(self, *, takeover: bool = False, origin: str | None = "", cookie: bool = True,
                 hello: bool = True) -> Any:
        """The chat socket; like the page, its first frame is ``clauz3/hello`` with the page secret."""
        headers = {}
        if cookie and self.cookie:
            headers["Cookie"] = f"{self.cookie_name}={self.cookie}"
        url = f"ws://127.0.0.1:{self.port}/api/chat/acp" + ("?takeover=1" if takeover else "")
        chosen = self.origin if origin == "" else origin
        ws = await websockets.connect(url, origin=chosen, additional_headers=headers, max_size=None,
                                      open_timeout=WAIT_FLOOR)
        if hello and cookie and self.page_secret:
            with contextlib.suppress(websockets.ConnectionClosed):  # a refused socket is closed already
                await ws.send(hello_frame(self.page_secret))
        return ws

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


# Every wait for a frame is for that event, with a deadline no loaded machine reaches (issue 23): a caller's
# smaller number is raised to this floor; a frame that never comes fails naming what was awaited.
WAIT_FLOOR = 90.0


PAGE_HEADER = "X-Clauz3-Page"
PAGE_SECRET_RE = re.compile(r'<meta name="clauz3-page" content="([A-Za-z0-9._-]+)">')


def signed_in_answer(response: httpx.Response, cookie_name: str) -> tuple[str, str]:
    """(cookie, page secret) from the answer to a redeemed sign-in link (issue 19: 200, not a redirect)."""
    assert response.status_code == 200, response.text
    match = PAGE_SECRET_RE.search(response.text)
    assert match is not None, response.text
    return response.cookies[cookie_name], match.group(1)


def hello_frame(page_secret: str) -> str:
    return json.dumps({"method": "clauz3/hello", "params": {"page": page_secret}})



def describe(predicate: Any) -> str:
    """What a frame predicate waits for: its ``what`` if it has one, else its source line."""
    what = getattr(predicate, "what", None)
    if isinstance(what, str):
        return what
    try:
        return inspect.getsource(predicate).strip()[:300]
    except (OSError, TypeError):
        return repr(predicate)


async def recv(ws: Any, timeout: float = WAIT_FLOOR, what: str = "the next frame") -> dict[str, Any]:
    try:
        return json.loads(await asyncio.wait_for(ws.recv(), timeout))
    except TimeoutError:
        raise AssertionError(f"no frame within {timeout:g} s while waiting for {what}") from None


async def recv_until(ws: Any, predicate: Any, timeout: float = WAIT_FLOOR) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Frames until ``predicate(frame)``; returns (that frame, every frame seen)."""
    timeout = max(timeout, WAIT_FLOOR)
    seen: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - loop.time())))
        except TimeoutError:
            last = json.dumps(seen[-1])[:500] if seen else "none"
            # The agent's last words usually say why the awaited frame never came (a refusal, an error).
            said = [json.dumps(f)[:400] for f in seen if "tool" in json.dumps(f)[:200] or "message" in f.get("method", "")]
            if said:
                last += "; tool/message frames: " + " | ".join(said[-4:])
            raise AssertionError(f"waited {timeout:g} s for a frame matching {describe(predicate)}; "
                                 f"{len(seen)} other frame(s) came, the last: {last}") from None
        seen.append(frame)
        if predicate(frame):
            return frame, seen


def state_is(**want: Any) -> Any:
    def check(frame: dict[str, Any]) -> bool:
        if frame.get("method") == "clauz3/state":
            st = frame["params"]
        elif frame.get("method") == "clauz3/restore":
            st = frame["params"]["state"]
        else:
            return False
        return all(st.get(k) == v for k, v in want.items())

    check.what = f"a state frame with {want}"  # type: ignore[attr-defined]  # read by describe()
    return check


def make_project(tmp: Path) -> Path:
    project = tmp / "project"
    project.mkdir()
    shutil.copytree(TUTORIAL / "tools", project / "tools")
    return Path(os.path.realpath(project))


@contextlib.asynccontextmanager
async def running_service(tmp: Path, *, project: Path | None = None,
                          bridge: PageOnlyBridge | None = PageOnlyBridge(), **over: Any) -> AsyncIterator[Harness]:
    data = tmp / "data"
    data.mkdir(mode=0o700, exist_ok=True)
    run_tmp = tmp / "run"
    run_tmp.mkdir(mode=0o700, exist_ok=True)
    project = project or make_project(tmp)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    log = tmp / "bridge.jsonl"
    config = LaunchConfig(agent=over.pop("agent", "demo"), project=str(project), data_dir=str(data), tmp_dir=str(run_tmp), port=port,
                          login_token=generate_token(), **over)
    if bridge is not None:
        config.bridge_argv = [sys.executable, str(bridge.script)]
        config.bridge_env = {"FAKE_BRIDGE_LOG": str(log)}
    else:
        config.skip_bridge_check = True
    service = await build_service(config, run_tmp)
    server = uvicorn.Server(uvicorn.Config(service.app, lifespan="off", log_level="critical", access_log=False,
                                           ws_ping_interval=20, ws_ping_timeout=20, ws_max_size=1024 * 1024))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    # Tests begin once any agent start already under way has settled.
    loop = asyncio.get_running_loop()
    settle_by = loop.time() + WAIT_FLOOR
    while (conv := service.host.conversation) is not None and conv.status == "starting":
        if loop.time() > settle_by:
            raise AssertionError(f"the service's first agent start did not settle within {WAIT_FLOOR:g} s")
        await asyncio.sleep(0.01)
    harness = Harness(service, port, tmp, log)
    try:
        yield harness
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
        await service.close()
        sock.close()


@contextlib.asynccontextmanager
async def signed_in(tmp: Path, **over: Any) -> AsyncIterator[Harness]:
    async with running_service(tmp, **over) as harness:
        await harness.login()
        yield harness
