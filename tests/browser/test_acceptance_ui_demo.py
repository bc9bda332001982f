"""Issue acceptance: `clauz3 ui demo --tutorial --no-browser` as a person runs it — real launcher,
service, demo agent, MCP bridge, run worker and approval authority — driven in Debian's Chromium."""

from __future__ import annotations

from pathlib import Path

from browser_harness import ARGS, CHROMIUM, launch_ui, needs_chromium, stop_ui, ui_env

pytestmark = needs_chromium


async def test_tutorial_starter_to_completed_run_through_the_real_stack(tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    proc, link = launch_ui("demo", "--tutorial", env=ui_env(tmp_path / "home"))
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
                await expect(starter).to_be_visible(timeout=60_000)
                await starter.click()
                send = page.get_by_role("button", name="Send", exact=True)
                await expect(send).to_be_enabled(timeout=60_000)
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
        stop_ui(proc)
    assert proc.returncode in (0, 130), proc.returncode
