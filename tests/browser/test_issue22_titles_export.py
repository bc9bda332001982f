"""Issue 22 item 10: history, export and handoff.

Two conversations whose first prompt is the same program get short, distinct titles from the
program's summary line (not "Run this program: ```pyt…"); the Markdown export lists each card's
guarantees, decision and outcome in its turn; "Copy transcript (Markdown)" puts that transcript on
the clipboard. At 1280 px and 390 px (the sidebar). Real path (real_stack).
"""

from __future__ import annotations

import pytest
from browser_harness import WIDTHS, needs_chromium, page_api
from real_stack import real_stack

pytestmark = needs_chromium

SUMMARY = "Tell Bob the build is green"
PROGRAM = (
    "Run this program:\n```python\n"
    f'"""{SUMMARY}."""\n\n'
    "import clauz3\n"
    "from tools.email.trusted import contracts as email\n"
    "from tools.email.trusted.effects import send_email\n\n\n"
    "@clauz3.guarantee(email.only(addresses=['bob@example.com']))\n"
    "@clauz3.guarantee(email.at_most(count=1))\n"
    "def main() -> None:\n"
    "    send_email('bob@example.com', 'Build is green')\n"
    "```"
)


async def run_and_approve(s) -> None:
    from playwright.async_api import expect

    await s.send(PROGRAM)
    card = s.page.locator("section.run").last
    await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
    await card.get_by_role("button", name="Approve", exact=True).click()
    await s.idle()


@pytest.mark.parametrize("width", WIDTHS)
async def test_titles_export_and_copied_transcript(tmp_path, width: int) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=s.base)
        await page.set_viewport_size({"width": width, "height": 844})
        await run_and_approve(s)
        await expect(page.locator("#title")).to_have_text(SUMMARY, timeout=60_000)
        toggle = page.locator("#sidebar-toggle")
        if width < 700:
            await toggle.click()
        await page.locator("#new-conversation").click()
        await expect(page.locator("#title")).to_have_text("New conversation", timeout=60_000)
        await expect(page.locator(".bubble.user")).to_have_count(0, timeout=60_000)
        await s.idle()
        if width < 700 and await toggle.get_attribute("aria-expanded") == "true":
            await toggle.click()
        await run_and_approve(s)

        await expect(page.locator("#title")).to_have_text(f"{SUMMARY} (2)", timeout=60_000)
        # Newest first: two short titles, told apart.
        await expect(page.locator(".history-row .title-text")).to_have_text([f"{SUMMARY} (2)", SUMMARY], timeout=60_000)
        number = page.locator(".history-row .title-number")
        if width >= 700:  # the " (2)" stays in view even when the title is cut short
            box, row = await number.bounding_box(), await page.locator(".history-row").first.bounding_box()
            assert box is not None and row is not None and box["width"] > 0
            assert box["x"] + box["width"] <= row["x"] + row["width"], (box, row)

        response = await page_api(page, s.base + "/api/chat/transcript?format=markdown")
        markdown = await response.text()
        assert markdown.startswith(f"# {SUMMARY} (2)\n"), markdown[:200]
        for part in ("### Run program.py", "Proved guarantees:", "- Every email goes to bob@example.com.",
                     "- At most 1 email is sent.", "Decision: Approved once by you", "Outcome: Ran:"):
            assert part in markdown, (part, markdown)
        assert markdown.index("## You") < markdown.index("### Run program.py")

        await page.locator("#header-actions").click()
        await page.get_by_role("menuitem", name="Copy transcript (Markdown)").click()
        await expect(page.get_by_text("Copied the transcript")).to_be_visible(timeout=60_000)
        copied = await page.evaluate("navigator.clipboard.readText()")
        assert copied == markdown, copied[:300]

        if width < 700:
            await toggle.click()
        shot = tmp_path / f"titles-{width}.png"
        await page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        s.clean()
