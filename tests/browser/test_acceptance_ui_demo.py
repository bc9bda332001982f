"""Issue acceptance: `clauz3 ui demo --tutorial --no-browser` as a person runs it — real launcher,
service, demo agent, MCP bridge, run worker and approval authority — driven in Debian's Chromium."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed at /usr/bin/chromium"),
]


def start_ui(home: Path) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(home)
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--tutorial", "--no-browser",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        match = re.search(r"Open this private link: (http://127\.0\.0\.1:\d+/ui/login\?key=\S+)", line)
        if match:
            return proc, match.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"no login link printed: {proc.stderr.read() if proc.stderr else ''}")


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


async def test_tutorial_starter_to_completed_run_through_the_real_stack(tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    proc, link = start_ui(tmp_path / "home")
    try:
        port = link.split(":")[2].split("/")[0]
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = await browser.new_page()
                errors: list[str] = []
                outside: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.on("request", lambda req: outside.append(req.url) if not req.url.startswith(
                    (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/")) else None)
                await page.goto(link)
                starter = page.get_by_role("button", name="Send a mock email")
                await expect(starter).to_be_visible(timeout=20_000)
                await starter.click()
                send = page.get_by_role("button", name="Send", exact=True)
                await expect(send).to_be_enabled(timeout=30_000)
                await send.click()
                card = page.locator("section.approval").last
                await expect(card).to_contain_text("Verified limits", timeout=60_000)
                await expect(card).to_contain_text("Mock email")
                await expect(card).to_contain_text('email.only(addresses=["bob@example.com"])')
                await expect(card).to_contain_text("email.at_most(count=1)")
                approve = page.get_by_role("button", name="Approve", exact=True)
                await expect(approve).to_be_enabled()
                await approve.click()
                await expect(page.locator("section.run").last).to_contain_text("Completed", timeout=60_000)
                assert errors == []
                assert outside == []
            finally:
                await browser.close()
    finally:
        stop(proc)
    assert proc.returncode in (0, 130), proc.returncode
