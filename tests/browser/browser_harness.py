"""The browser tests' shared setup: a real in-process workspace service (sessions_harness) with the real
demo agent, Debian's Chromium through Playwright, a signed-in page, and a screenshot of the page written
to a temp dir when a test fails (06 QB-9). Each caller names its bridge: ``bridge=None`` is the real
bridge, prover and worker; ``bridge=PageOnlyBridge()`` is only for page mechanics that never depend on a
proof or a run. Flows a person sees use the real launcher (real_stack.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "sessions"))
from sessions_harness import Harness, PageOnlyBridge, running_service  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HTML_BRIDGE = PageOnlyBridge(HERE / "html_bridge.py")  # PageOnlyBridge whose status tool answers hostile HTML
MOBILE = {"width": 390, "height": 844}
LOGIN_LINK = re.compile(r"Open this private link: (http://127\.0\.0\.1:\d+/ui/login\?key=\S+)")

HAS_CHROMIUM = os.path.exists(CHROMIUM)
# A behaviour that does not depend on the width runs at phone width in the default tier and at desktop
# width too in the soak tier (00 DEC-2): the default tier stays inside its ten minutes on two cores.
WIDTHS = [390, pytest.param(1280, marks=pytest.mark.soak)]

needs_chromium = [
    pytest.mark.browser,
    pytest.mark.skipif(not HAS_CHROMIUM, reason="chromium is not installed at /usr/bin/chromium"),
]


@dataclass
class Session:
    svc: Harness
    page: Any
    context: Any
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    async def sign_in(self) -> None:
        """Open a fresh sign-in link as the person does; the answer keeps the page secret in this tab's
        sessionStorage and replaces the address with /ui (issue 19)."""
        token = self.svc.service.sign_in.tokens.new()
        await sign_in_page(self.page, f"{self.svc.base}/ui/login?key={token}")

    async def send(self, text: str) -> None:
        from playwright.async_api import expect

        box = self.page.get_by_role("textbox", name="Message Demo")
        await box.fill(text)
        send = self.page.get_by_role("button", name="Send", exact=True)
        await expect(send).to_be_enabled(timeout=60_000)
        await send.click()

    async def idle(self) -> None:
        """Wait until the agent is ready again (Send works once text is typed)."""
        from playwright.async_api import expect

        await expect(self.page.get_by_role("status", name="Activity")).to_be_hidden(timeout=60_000)
        await expect(self.page.locator("#status-text")).to_have_text("Ready", timeout=60_000)

    async def no_overflow(self) -> None:
        width = await self.page.evaluate("document.documentElement.scrollWidth")
        inner = await self.page.evaluate("window.innerWidth")
        assert width <= inner, f"horizontal overflow: scrollWidth {width} > {inner}"

    def clean(self) -> None:
        assert self.errors == [], self.errors
        assert self.outside == [], self.outside


PAGE_WAIT_MS = 60_000


async def sign_in_page(page: Any, link: str) -> None:
    """Open a sign-in link in ``page`` and wait until the page has moved on to /ui."""
    await page.goto(link)
    await page.wait_for_url(re.compile(r"^http://127\.0\.0\.1:\d+/ui$"), timeout=60_000)


async def page_secret(page: Any) -> str:
    """The secret the signed-in page holds (tests that call the API as that page send it)."""
    secret = await page.evaluate("sessionStorage.getItem('clauz3-page')")
    assert isinstance(secret, str) and secret, "the page holds no page secret"
    return secret


async def page_api(page: Any, url: str, *, method: str = "GET", data: Any = None) -> Any:
    """A request with the page's cookie (Playwright's ``page.request``) and its page secret."""
    headers = {"X-Clauz3-Page": await page_secret(page)}
    if method == "GET":
        return await page.request.get(url, headers=headers)
    return await page.request.fetch(url, method=method, headers=headers, data=data)


def ui_env(home: Path) -> dict[str, str]:
    """The caller's environment without CLAUZ3_* (no stray approval service), with a private data home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(home)
    return env


def launch_ui(*args: str, env: dict[str, str], timeout: float = 90.0,
              cwd: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start the real `clauz3 ui <args> --no-browser --port 0` (in ``cwd``: the project) in its own process
    group; return it and the sign-in link it prints. Stop it with ``stop_ui``."""
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", *args, "--no-browser", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, cwd=cwd)
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        match = LOGIN_LINK.search(line)
        if match:
            return proc, match.group(1)
        if not line and proc.poll() is not None:
            break
    stop_ui(proc)
    raise AssertionError(f"no login link printed: {proc.stderr.read() if proc.stderr else ''}")


def stop_ui(proc: subprocess.Popen[str], grace: float = 15.0) -> None:
    """Ctrl-C the launcher's process group as a person would; SIGKILL it after ``grace`` seconds."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _shot_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="clauz3-browser-failure-"))


@contextlib.asynccontextmanager
async def open_page(tmp: Path, *, bridge: PageOnlyBridge | None, viewport: dict[str, int] | None = None,
                    color_scheme: str | None = None, sign_in: bool = True, **service: Any) -> AsyncIterator[Session]:
    from playwright.async_api import async_playwright, expect

    # Every wait on the page is for an event, with a deadline no loaded machine reaches (issue 23).
    expect.set_options(timeout=PAGE_WAIT_MS)
    async with running_service(tmp, bridge=bridge, **service) as svc, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = await browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                            color_scheme=color_scheme or "light",
                                            permissions=["clipboard-read", "clipboard-write"])
        context.set_default_timeout(PAGE_WAIT_MS)
        page = await context.new_page()
        session = Session(svc, page, context)
        page.on("pageerror", lambda exc: session.errors.append(str(exc)))
        allowed = (f"http://127.0.0.1:{svc.port}/", f"ws://127.0.0.1:{svc.port}/", "blob:", "data:")

        def on_request(request: Any) -> None:
            session.requests.append(request.url)
            if not request.url.startswith(allowed):
                session.outside.append(request.url)

        page.on("request", on_request)
        try:
            if sign_in:
                await session.sign_in()
            yield session
        except BaseException:
            with contextlib.suppress(Exception):
                target = _shot_dir() / "failure.png"
                await page.screenshot(path=str(target), full_page=True)
                print(f"\nscreenshot of the failing page: {target}", file=sys.stderr)
            raise
        finally:
            await browser.close()
