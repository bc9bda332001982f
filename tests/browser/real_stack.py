"""The real path for browser tests: `clauz3 ui demo` started as a person starts it (real launcher,
service, demo agent, MCP bridge, prover, run worker and approval authority), driven in Debian's
Chromium. Nothing here is patched or stood in: state is read back through the service's own
authenticated HTTP API with the page's cookie, and files are read from the project on disk.

A project without ``--tutorial`` gets the email tutorial's library and the test libraries of
``tests/browser/libraries`` (real library folders) in its ``tools/``.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browser_harness import ARGS, CHROMIUM, launch_ui, page_api, sign_in_page, stop_ui, ui_env

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = Path(__file__).resolve().parent / "libraries"
EMAIL_TOOLS = ROOT / "src" / "clauz3" / "tutorials" / "email" / "tools" / "email"


@dataclass
class Stack:
    proc: Any
    base: str
    home: Path
    project: Path
    page: Any
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    async def send(self, text: str) -> None:
        from playwright.async_api import expect

        box = self.page.get_by_role("textbox", name="Message Demo")
        await expect(box).to_be_visible(timeout=60_000)
        await box.fill(text)
        send = self.page.get_by_role("button", name="Send", exact=True)
        await expect(send).to_be_enabled(timeout=60_000)
        bubbles = self.page.locator(".bubble.user")
        before = await bubbles.count()
        await send.click()
        # Sent once the page has drawn the echo: before it, the page still shows the previous turn's state,
        # so an idle() right after would pass before this turn began (and the next send race into it).
        await expect(bubbles).to_have_count(before + 1, timeout=60_000)

    async def idle(self) -> None:
        """Wait until the turn has ended and the agent is ready again."""
        from playwright.async_api import expect

        await expect(self.page.get_by_role("status", name="Activity")).to_be_hidden(timeout=60_000)
        await expect(self.page.locator("#status-text")).to_have_text("Ready", timeout=60_000)

    async def api(self, path: str) -> Any:
        """GET one of the service's routes with the page's own session cookie."""
        response = await page_api(self.page, self.base + path)
        assert response.ok, (path, response.status, await response.text())
        return await response.json()

    async def state(self) -> dict[str, Any]:
        """The current conversation's state as the service exports it (its run records included)."""
        exported = await self.api("/api/chat/transcript?format=json")
        return exported["state"]

    async def runs(self) -> list[dict[str, Any]]:
        runs = (await self.state()).get("runs") or {}
        return list(runs.values()) if isinstance(runs, dict) else list(runs)

    async def approval(self, request_id: str) -> dict[str, Any]:
        return await self.api(f"/api/requests/{request_id}")

    def clean(self) -> None:
        assert self.errors == [], self.errors
        assert self.outside == [], self.outside


def make_project(tmp: Path, libraries: Sequence[str]) -> Path:
    project = tmp / "project"
    (project / "tools").mkdir(parents=True)
    shutil.copytree(EMAIL_TOOLS, project / "tools" / "email")
    for name in libraries:
        shutil.copytree(LIBRARIES / name, project / "tools" / name)
    return project.resolve()


@contextlib.asynccontextmanager
async def real_stack(tmp: Path, *, tutorial: str | None = "email", libraries: Sequence[str] = (),
                     extra_args: Sequence[str] = (),
                     setup: Callable[[Path], None] | None = None) -> AsyncIterator[Stack]:
    """`clauz3 ui demo [--tutorial T]` with a private data home, signed in in a fresh Chromium page.
    ``setup(project)`` runs before the launcher starts (a project of the test's own making)."""
    from playwright.async_api import async_playwright

    home = tmp / "home"
    if tutorial is not None:
        project = home / "tutorials" / tutorial
        args = ["demo", "--tutorial", tutorial, *extra_args]
        cwd = tmp
    else:
        project = make_project(tmp, libraries)
        args = ["demo", *extra_args]
        cwd = project
    if setup is not None:
        setup(project)
    env = ui_env(home)
    env["CLAUZ3_CACHE"] = str(tmp / "cache")  # a first run's empty proof cache: no result from another test
    proc, link = launch_ui(*args, env=env, cwd=cwd)
    base = link.split("/ui/login")[0]
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = await browser.new_page(viewport={"width": 1280, "height": 900})
                stack = Stack(proc, base, home, project, page)
                page.on("pageerror", lambda exc: stack.errors.append(str(exc)))
                allowed = (base + "/", base.replace("http://", "ws://") + "/", "blob:", "data:")
                page.on("request", lambda req: stack.outside.append(req.url)
                        if not req.url.startswith(allowed) else None)
                await sign_in_page(page, link)
                try:
                    yield stack
                except BaseException:
                    with contextlib.suppress(Exception):
                        target = tmp / "failure.png"
                        await page.screenshot(path=str(target), full_page=True)
                        print(f"\nscreenshot of the failing page: {target}", file=sys.stderr)
                    raise
            finally:
                await browser.close()
    finally:
        stop_ui(proc)
