"""The page's landmarks (issue 15, "The page"): ONE `main` landmark holds whichever view is shown (Chat,
Libraries, Approvals), and every run/approval card is a region named by its program in plain words, on
the real path (`clauz3 ui demo --tutorial email`: launcher, service, demo agent, bridge, prover, worker
and authority) in Debian's Chromium, read through the accessibility tree as a screen reader reads it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_harness import needs_chromium
from real_stack import real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

VIEWS = {"/ui": "#view-chat", "/ui/libraries": "#view-libraries", "/ui/profile": "#view-approvals"}
# Every main landmark in the document, shown or not (get_by_role skips hidden ones).
MAINS = "document.querySelectorAll('main, [role=main]').length"


async def one_main_holding(page: Any, view: str) -> None:
    from playwright.async_api import expect

    main = page.get_by_role("main")
    await expect(main).to_have_count(1)
    assert await page.evaluate(MAINS) == 1
    await expect(main.locator(view)).to_be_visible()
    for other in VIEWS.values():
        if other != view:
            await expect(page.locator(other)).to_be_hidden()
            assert await main.locator(other).count() == 1, f"{other} is outside <main>"


async def test_one_main_landmark_holds_each_view(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await expect(page.get_by_role("button", name="Send a mock email")).to_be_visible(timeout=60_000)
        await one_main_holding(page, "#view-chat")
        main = page.get_by_role("main")
        # The transcript and the starters the tests and the bench find are inside it, by their ids.
        await expect(main.locator("#conversation #starters")).to_have_count(1)
        await expect(main.get_by_role("textbox", name="Message Demo")).to_be_visible()
        # Switching by the sidebar's links keeps the URLs; loading each URL shows the same structure.
        for path, link in (("/ui/libraries", "Libraries"), ("/ui/profile", "Approvals"), ("/ui", "Chat")):
            await page.get_by_role("link", name=link, exact=True).click()
            await expect(page).to_have_url(s.base + path)
            await one_main_holding(page, VIEWS[path])
        for path, view in VIEWS.items():
            await page.goto(s.base + path)
            await expect(page.locator(view).locator("h2").first).to_be_visible(timeout=60_000)
            await one_main_holding(page, view)
        await page.get_by_role("link", name="Chat", exact=True).click()
        await one_main_holding(page, "#view-chat")
        await page.go_back()  # the client-side view switch's history entry
        await expect(page).to_have_url(s.base + "/ui/profile")
        await one_main_holding(page, "#view-approvals")
        s.clean()


async def region_name(region: Any) -> str:
    """The region's accessible name as the browser computes it (aria-label / aria-labelledby)."""
    snapshot = await region.aria_snapshot()
    match = re.search(r'region "(.*)"', snapshot.splitlines()[0])  # the line may be YAML-quoted as a whole
    assert match, snapshot.splitlines()[0]
    return match.group(1)


async def test_cards_are_regions_named_by_their_program(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await s.send(EMAIL.starters[0].text)
        bob = page.get_by_role("region", name=re.compile(r"^Approval: program\.py — .*bob@example\.com"))
        await expect(bob.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await expect(bob).to_have_count(1)
        bob_name = await region_name(bob)
        assert "Will send 1 mock email to bob@example.com" in bob_name, bob_name
        [run] = await s.runs()
        assert run["request_id"] not in bob_name and "clr_" not in bob_name, bob_name
        # The approval part inside the card is no second, generically named region.
        await expect(page.get_by_role("region", name=re.compile("Approval request|Run program"))).to_have_count(0)
        # The Approvals view lists the waiting request under the same name; Open to decide comes back to it.
        await page.get_by_role("link", name="Approvals", exact=True).click()
        waiting = page.get_by_role("main").get_by_role("listitem", name=bob_name, exact=True)
        await expect(waiting).to_have_count(1, timeout=60_000)
        await waiting.get_by_role("button", name="Open to decide").click()
        await expect(page).to_have_url(s.base + "/ui")
        await bob.get_by_role("button", name="Approve", exact=True).click()
        ran = page.get_by_role("region", name=re.compile(r"^Ran: program\.py — .*bob@example\.com: “Hi from clauz3”"))
        await expect(ran).to_have_count(1, timeout=60_000)
        await s.idle()

        # A second program: its own region, with a different name.
        await s.send(EMAIL.starters[1].text)
        carol = page.get_by_role("region", name=re.compile(r"^Approval: program\.py — .*carol@example\.com"))
        await expect(carol.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        carol_name = await region_name(carol)
        assert carol_name != bob_name and "bob@example.com" not in carol_name, (carol_name, bob_name)
        await expect(page.get_by_role("region", name=re.compile(r"program\.py"))).to_have_count(2)
        # Rejected: the card says it did not run, still by its program.
        await carol.get_by_role("button", name="Reject", exact=True).click()
        await expect(page.get_by_role("region", name=re.compile(r"^Did not run: program\.py — .*carol@example\.com"))
                     ).to_have_count(1, timeout=60_000)
        await s.idle()

        # Approve and remember; then a program like it runs automatically, and its card is named by what it did.
        await s.send(EMAIL.starters[2].text)
        second = page.get_by_role("region", name=re.compile(r"^Approval: program\.py — .*Second note"))
        await expect(second.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await second.get_by_role("button", name="More", exact=True).click()
        await second.get_by_role("button", name="Approve and remember").click()
        await page.get_by_role("dialog").get_by_role("button", name="Approve and remember").click()
        await expect(page.get_by_role("region", name=re.compile(r"^Ran: program\.py — .*“Second note”"))
                     ).to_have_count(1, timeout=60_000)
        await s.idle()
        await s.send(EMAIL.starters[0].text)
        again = page.get_by_role("region", name=re.compile(r"^Ran: program\.py — .*“Hi from clauz3”"))
        await expect(again).to_have_count(2, timeout=60_000)
        await expect(again.last).to_contain_text("Approved by your rule")
        await expect(page.get_by_role("region", name=re.compile(r"^Approval: "))).to_have_count(0)
        s.clean()
