"""Issue 22 item 8: every message a person sees is a sentence that names their file as they know it and
says what to do next — no scratch paths, no internal codes, no words addressed to the agent.

Three flows on the real path (real launcher, demo agent, bridge, prover, worker, authority):
a program with a syntax error (its card and the agent's reply), a program rejected with feedback (its
one-line outcome), and a run stopped before a decision (no red "Failed" beside "Stopped").
"""

from __future__ import annotations

import re

import pytest
from browser_harness import WIDTHS, needs_chromium
from real_stack import real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

BAD_PROGRAM = "Run this program:\n```python\ndef main() -> None:\n    print('hi'\n```"
LOG_LIKE = re.compile(r"/tmp/|clauz3-run-|\bstructural\b|approval_expired|\bthe person\b|`\w+`|\.py:\d+:\d+")


async def transcript_text(page) -> str:
    return await page.locator("#messages").inner_text()


@pytest.mark.parametrize("width", WIDTHS)
async def test_syntax_error_reads_as_a_sentence(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.set_viewport_size({"width": width, "height": 844})
        await s.send(BAD_PROGRAM)
        await s.idle()
        card = page.locator("section.run")
        await expect(card.locator(".phase")).to_have_text("Did not execute", timeout=60_000)
        reply = page.locator(".bubble.assistant").last
        await expect(reply).to_contain_text("program.py")
        await expect(reply).to_contain_text("line 2")
        await expect(reply).to_contain_text(re.compile("nothing ran", re.IGNORECASE))
        await expect(reply).to_contain_text(re.compile("correct the program", re.IGNORECASE))
        await expect(card).to_contain_text("program.py")
        await expect(card).to_contain_text("line 2")
        toggle = card.get_by_role("button", name="Show this run")
        if await toggle.count():
            await toggle.click()
        details = card.get_by_text("Details", exact=True)
        if await details.count():
            await details.first.click()
        text = await transcript_text(page)
        found = LOG_LIKE.findall(text)
        assert not found, (found, text)
        shot = tmp_path / f"syntax-{width}.png"
        await page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot: {shot}")
        s.clean()


async def test_rejected_with_feedback_reads_as_a_sentence(tmp_path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await s.send(EMAIL.starters[1].text)
        card = page.locator("section.run")
        await expect(card.get_by_role("button", name="Reject", exact=True)).to_be_enabled(timeout=60_000)
        await card.get_by_role("textbox", name="Feedback for the agent (optional)").fill("Carol is away this week")
        await card.get_by_role("button", name="Reject", exact=True).click()
        await s.idle()
        one = card.locator(".one-line")
        await expect(one).to_contain_text("Rejected by you", timeout=60_000)
        await expect(one).to_contain_text("Nothing ran")
        await expect(one).to_contain_text("Carol is away this week")
        text = await transcript_text(page)
        found = LOG_LIKE.findall(text)
        assert not found, (found, text)
        assert "do not run it" not in text
        shot = tmp_path / "rejected.png"
        await page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot: {shot}")
        s.clean()


async def test_stopped_before_a_decision_is_not_failed(tmp_path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await s.send(EMAIL.starters[0].text)
        card = page.locator("section.run")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        # Issue 22 (smaller): no "Run program Working…" row above the pending card; the card has the status.
        run_row = page.locator("details.tool", has_text="Run program")
        await expect(run_row.locator(".tool-status")).to_have_text("")
        await page.get_by_role("button", name="Stop", exact=True).click()
        await expect(card.locator(".phase")).to_have_text("Stopped", timeout=60_000)
        await s.idle()
        await expect(card).to_contain_text("Cancelled before a decision")
        messages = page.locator("#messages")
        await expect(messages.get_by_text("Failed", exact=True)).to_have_count(0)
        await expect(messages.locator(".tool-status.failed, .status-failed")).to_have_count(0)
        text = await transcript_text(page)
        assert "Failed" not in text, text
        found = LOG_LIKE.findall(text)
        assert not found, (found, text)
        shot = tmp_path / "stopped.png"
        await page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot: {shot}")
        s.clean()
