"""Issue 22 item 1: after `clauz3 resume` in a terminal, reopening the page shows every turn in its place.

The demo agent is a new process after a resume and may reuse its tool-call ids ("run-2" in both turns);
the page must still draw the resumed turn's run card under the resumed prompt, never under the previous
one (a card under the wrong prompt misleads consent). Real path: `clauz3 start demo`, `clauz3 resume`,
then `clauz3 ui demo` in Chromium; the approvals are made over the Approver UI's authenticated API.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from browser_harness import ARGS, CHROMIUM, WIDTHS, launch_ui, needs_chromium, sign_in_page, stop_ui, ui_env
from real_stack import make_project

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from page_client import PAGE_HEADER, signed_in

pytestmark = needs_chromium
CONVERSATION = re.compile(r"Clauz3 conversation: ([0-9a-f-]{36})")
CARD = re.compile(r"Approval needed for run (\S+): ")
APPROVE_AT = re.compile(r"Approve or reject it in the Approver UI \(keep private\): (http://127\.0\.0\.1:\d+)"
                        r"/ui/login\?key=(\S+)")


def terminal_turn(args: list[str], env: dict[str, str], project: Path, prompt: str) -> str:
    """One `clauz3 start|resume` with one email prompt approved once; returns the conversation id."""
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", *args, "--no-browser"], cwd=project, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    seen: list[str] = []
    cid = request = base = key = None
    try:
        for line in proc.stdout:
            seen.append(line)
            if cid is None and (m := CONVERSATION.search(line)):
                cid = m.group(1)
                proc.stdin.write(prompt + "\n")
                proc.stdin.flush()
            elif (m := CARD.search(line)):
                request = m.group(1)
            elif request and (m := APPROVE_AT.search(line)):
                base, key = m.group(1), m.group(2)
                with httpx.Client(timeout=90.0, base_url=base, trust_env=False, follow_redirects=False) as client:
                    *_, secret = signed_in(client.get(f"/ui/login?key={key}"))
                    decided = client.post(f"/api/requests/{request}/decision", json={"decision": "approved_once"},
                                          headers={"Origin": base, PAGE_HEADER: secret})
                    assert decided.status_code == 200, decided.text
            elif "Done: the program ran once after approval" in line:
                proc.stdin.close()
        assert proc.wait(90) == 0, "".join(seen)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert cid is not None and request is not None, "".join(seen)
    return cid


@pytest.mark.asyncio
@pytest.mark.parametrize("width", WIDTHS)
async def test_resumed_turn_card_sits_under_its_own_prompt(tmp_path: Path, width: int) -> None:
    from playwright.async_api import async_playwright, expect

    home = tmp_path / "home"
    env = ui_env(home)
    env["CLAUZ3_CACHE"] = str(tmp_path / "cache")
    project = make_project(tmp_path, ())
    cid = terminal_turn(["start", "demo"], env, project, 'email bob@example.com "Hi"')
    assert terminal_turn(["resume", cid], env, project, 'email carol@example.com "Hello"') == cid

    proc, link = launch_ui("demo", env=env, cwd=project)
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = await browser.new_page(viewport={"width": width, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                await sign_in_page(page, link)
                if width < 700:
                    await page.get_by_role("button", name="Show sidebar").click()
                await page.locator(".history-row", has_text="bob@example.com").get_by_role("button").first.click()
                turns = page.locator("#messages .turn")
                await expect(turns).to_have_count(2, timeout=60_000)
                first, second = turns.nth(0), turns.nth(1)
                await expect(first.locator(".bubble.user")).to_contain_text("bob@example.com")
                await expect(second.locator(".bubble.user")).to_contain_text("carol@example.com")
                # One run card per turn, each under its own prompt, each after that prompt in the page.
                await expect(first.locator("section.card.run")).to_have_count(1)
                await expect(second.locator("section.card.run")).to_have_count(1)
                await expect(second.locator("section.card.run")).to_contain_text("carol@example.com")
                await expect(first.locator("section.card.run")).not_to_contain_text("carol@example.com")
                await expect(second.locator("details.tool[data-tool-call]")).not_to_have_count(0)
                order = await page.evaluate("""() => [...document.querySelectorAll(
                    '#messages .bubble.user, #messages section.card.run')].map((n) =>
                    n.classList.contains('user') ? 'prompt' : 'card')""")
                assert order == ["prompt", "card", "prompt", "card"], order
                await page.screenshot(path=str(tmp_path / f"resume-order-{width}.png"), full_page=True)
                print(f"\nscreenshot: {tmp_path / f'resume-order-{width}.png'}", file=sys.stderr)
                assert errors == [], errors
            finally:
                await browser.close()
    finally:
        stop_ui(proc)
