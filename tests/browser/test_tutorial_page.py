"""The page in Debian's Chromium: starter → Send → approval card naming the mock library → Approve
→ Completed run card (issue acceptance 1, through the fake lifetime bridge), with no request
outside 127.0.0.1 and no page error."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sessions"))
from browser_harness import sign_in_page
from sessions_harness import running_service

from clauz3.tutorials import EMAIL

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed at /usr/bin/chromium"),
]


async def test_starter_to_completed_run(tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    async with running_service(tmp_path, tutorial="email", bridge=None) as svc, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page()
            errors: list[str] = []
            outside: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("request", lambda req: outside.append(req.url) if not req.url.startswith(
                (f"http://127.0.0.1:{svc.port}/", f"ws://127.0.0.1:{svc.port}/")) else None)
            token = svc.service.sign_in.tokens.new()
            await sign_in_page(page, f"{svc.base}/ui/login?key={token}")
            assert page.url == f"{svc.base}/ui"
            starter = page.get_by_role("button", name="Send a mock email")
            await expect(starter).to_be_visible(timeout=60_000)
            await starter.click()
            composer = page.get_by_role("textbox", name="Message Demo")
            await expect(composer).to_have_value(EMAIL.starters[0].text)
            send = page.get_by_role("button", name="Send", exact=True)
            await expect(send).to_be_enabled(timeout=60_000)
            await send.click()
            card = page.locator("section.approval")
            await expect(card).to_contain_text("Verified limits", timeout=60_000)
            await expect(card).to_contain_text("Mock email")
            await expect(card).to_contain_text("bob@example.com")
            await expect(page.get_by_role("textbox", name="Feedback for the agent (optional)")).to_be_visible()
            await expect(page.get_by_role("button", name="Reject", exact=True)).to_be_visible()
            await page.get_by_role("button", name="More", exact=True).click()  # issue 12: the rest under More
            for name in ("Reject contract", "Need more info"):
                await expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
            await page.get_by_role("button", name="Approve", exact=True).click()
            await expect(page.locator("section.run")).to_contain_text("Completed", timeout=60_000)
            await expect(card).to_contain_text("Decision: Approved once")
            assert errors == []
            assert outside == []
            html = await page.content()
            for secret in svc.host.secret_values():
                assert secret not in html
        finally:
            await browser.close()


async def test_agent_html_renders_as_text(tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    async with running_service(tmp_path) as svc, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page()
            token = svc.service.sign_in.tokens.new()
            await sign_in_page(page, f"{svc.base}/ui/login?key={token}")
            payload = '<img src=x onerror="window.__pwned=1"> [x](javascript:window.__pwned=2)'
            composer = page.get_by_role("textbox", name="Message Demo")
            await composer.fill(payload)
            send = page.get_by_role("button", name="Send", exact=True)
            await expect(send).to_be_enabled(timeout=60_000)
            await send.click()
            await expect(page.locator(".bubble.user .user-text")).to_have_text(payload)
            assert await page.locator(".messages img").count() == 0
            assert await page.evaluate("window.__pwned === undefined")
        finally:
            await browser.close()
