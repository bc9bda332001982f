"""Fixtures for provider tests: the pinned npm prefix (04 TST-2), an isolated environment
(TST-3), a recording bridge, and host ACP clients that are always closed in teardown."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from npm_prefix import NPM_BIN, PREFIX, installed_version

from clauz3.sessions.agent.acp_client import AcpClient
from clauz3.sessions.agent.providers import build_launch, check, lookup
from clauz3.sessions.agent.providers.launch import ProviderLaunch, remove_private_dir

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
MARKED_BRIDGE = FIXTURES / "marked_bridge.py"
INSTALL = "bash scripts/install_adapters.sh (just adapters)"


def need_npm(package: str, pin: str | None = None) -> None:
    """Fail naming the package and its install command when the prefix lacks it (QB-5). tests/conftest.py
    installs every pin before the session, so a missing one is a broken install, never a reason to skip."""
    have = installed_version(package)
    if have is None or (pin is not None and not (have == pin or have.startswith(pin + "."))):
        spec = f"{package}@{pin}" if pin else package
        pytest.fail(f"{spec} is not installed in {PREFIX}; run {INSTALL}")


def npm_path() -> str:
    """PATH with the pinned prefix first (TST-2), so its node 22 and adapters win."""
    return f"{NPM_BIN}{os.pathsep}{os.environ.get('PATH', '')}"


class RefusingProxy:
    """TST-3: a listener on 127.0.0.1 that records and refuses every proxied request."""

    def __init__(self) -> None:
        self.requests: list[bytes] = []
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.port = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                with contextlib.suppress(OSError):
                    self.requests.append(conn.recv(4096).split(b"\r\n", 1)[0])
                    conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    def close(self) -> None:
        self._sock.close()


@pytest.fixture
def proxy() -> Iterator[RefusingProxy]:
    listener = RefusingProxy()
    yield listener
    listener.close()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def data_home(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path.resolve()


@pytest.fixture
def isolated_env(tmp_path: Path, proxy: RefusingProxy) -> dict[str, str]:
    """The service environment a real-adapter test starts from (TST-3): own HOME, no network."""
    home = tmp_path / "home"
    home.mkdir()
    proxy_url = f"http://127.0.0.1:{proxy.port}"
    env = {
        "PATH": npm_path(),
        "HOME": str(home),
        "USER": os.environ.get("USER", "tester"),
        "LANG": "C.UTF-8",
        "TMPDIR": str(tmp_path),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "HTTPS_PROXY": proxy_url,
        "HTTP_PROXY": proxy_url,
        "https_proxy": proxy_url,
        "http_proxy": proxy_url,
        "NO_PROXY": "127.0.0.1,localhost",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUZ3_APPROVAL_TOKEN": "must-not-reach-adapters",
    }
    return env


class Bridge:
    """A recording bridge entry (what the host's ``bridge_entry`` would be, minus the real bridge)."""

    def __init__(self, tmp: Path) -> None:
        self.dir = tmp / "bridge-starts"
        self.dir.mkdir()

    def entry(self) -> dict[str, Any]:
        return {
            "name": "clauz3",
            "command": sys.executable,
            "args": [str(MARKED_BRIDGE)],
            "env": [
                {"name": "CLAUZ3_SESSION_LIFETIME_SOCKET", "value": str(self.dir / "no.sock")},
                {"name": "CLAUZ3_BRIDGE_TICKET", "value": "ticket-for-test"},
                {"name": "CLAUZ3_HOME", "value": str(self.dir)},
                {"name": "MARKED_BRIDGE_DIR", "value": str(self.dir)},
            ],
        }

    def starts(self) -> list[dict[str, Any]]:
        return [json.loads(p.read_text()) for p in sorted(self.dir.glob("start-*.json"))]

    async def wait_started(self, timeout: float = 90.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            starts = self.starts()
            if starts:
                return starts[0]
            await asyncio.sleep(0.1)
        raise AssertionError(f"the adapter did not start the bridge within {timeout:g} s")


@pytest.fixture
def bridge(tmp_path: Path) -> Bridge:
    return Bridge(tmp_path)


Start = Callable[..., tuple[AcpClient, ProviderLaunch]]


@pytest.fixture
async def start_provider(
    project: Path, data_home: Path, bridge: Bridge, isolated_env: dict[str, str]
) -> AsyncIterator[Start]:
    """``start(provider, **build_launch kwargs) -> (client, launch)``; every client closed after."""
    made: list[tuple[AcpClient, ProviderLaunch]] = []

    def start(provider: str, *, env: dict[str, str] | None = None, **kw: Any) -> tuple[AcpClient, ProviderLaunch]:
        base = dict(isolated_env) | (env or {})
        availability = check(provider, path=base["PATH"])
        assert availability.available, availability.reason
        launch = build_launch(
            provider, project=project, bridge_entry=bridge.entry(), data_dir=data_home,
            adapter_argv=availability.argv, base_env=base, tmp_root=base["TMPDIR"], **kw,
        )
        client = AcpClient(launch.launch, permissions=lookup(provider).permissions, label=provider)
        made.append((client, launch))
        return client, launch

    yield start
    for client, launch in made:
        await client.close()
        remove_private_dir(launch.private_dir)
