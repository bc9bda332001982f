"""Layout and the other views (02 UI-5, UI-6, UI-26; 06 QB-9): 390 px without horizontal overflow on
chat, Files, Libraries, Approvals and the tutorial; the dark theme; Libraries review/apply/remove;
workspace switching and tutorial reset; Undo file changes (05 FS-7)."""

from __future__ import annotations

import os
from pathlib import Path

from browser_harness import MOBILE, PageOnlyBridge, needs_chromium, open_page

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium


async def test_mobile_width_has_no_horizontal_overflow(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=None, viewport=MOBILE, tutorial="email") as s:
        page = s.page
        await expect(page.get_by_role("button", name="Send a mock email")).to_be_visible(timeout=60_000)
        await s.no_overflow()
        # The sidebar hides behind a button.
        await expect(page.get_by_role("searchbox", name="Search conversations")).to_be_hidden()
        await page.get_by_role("button", name="Show sidebar").click()
        await expect(page.get_by_role("searchbox", name="Search conversations")).to_be_visible()
        await s.no_overflow()
        await page.keyboard.press("Escape")
        await expect(page.get_by_role("searchbox", name="Search conversations")).to_be_hidden()
        await page.get_by_role("button", name="Send a mock email").click()
        await s.send(EMAIL.starters[0].text)
        await expect(page.locator("section.approval").get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        run = page.locator("section.run").last
        await run.get_by_text("Details", exact=True).first.click()  # the card's technical part, program included
        await run.get_by_text("Program source", exact=True).first.click()
        await s.no_overflow()
        await page.get_by_role("button", name="Files", exact=True).click()
        await expect(page.get_by_role("dialog", name="Files")).to_be_visible()
        await s.no_overflow()
        await page.keyboard.press("Escape")
        for path in ("/ui/libraries", "/ui/profile"):
            await page.goto(f"{s.svc.base}{path}")
            await expect(page.locator(".view:not([hidden]) h2")).to_be_visible(timeout=60_000)
            await page.wait_for_timeout(300)
            await s.no_overflow()
        s.clean()


async def test_dark_theme_follows_the_system(tmp_path: Path) -> None:
    async with open_page(tmp_path, bridge=PageOnlyBridge(), color_scheme="dark") as s:
        page = s.page
        await page.wait_for_selector("#status-text")
        bg = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        fg = await page.evaluate("getComputedStyle(document.body).color")

        def lum(css: str) -> float:
            r, g, b = (int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
            return 0.2126 * r + 0.7152 * g + 0.0722 * b

        assert lum(bg) < 60 < 180 < lum(fg), (bg, fg)
    (tmp_path / "light").mkdir()
    async with open_page(tmp_path / "light", bridge=PageOnlyBridge(), color_scheme="light") as s:
        bg = await s.page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(255, 255, 255)"


async def test_libraries_view_install_select_remove(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await s.idle()
        await page.get_by_role("link", name="Libraries", exact=True).click()
        view = page.locator("#view-libraries")
        card = view.get_by_role("article", name="Environment variables")
        await expect(card).to_be_visible(timeout=60_000)
        await view.get_by_role("searchbox", name="Search libraries").fill("environment")
        await expect(view.get_by_role("article")).to_have_count(1)
        await card.get_by_role("button", name="Install Environment variables").click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_contain_text("Once installed, this code runs as trusted code for this project. Read it first.", timeout=60_000)
        await expect(dialog).to_contain_text("added · 0 changed · 0 removed")
        await expect(dialog.get_by_text("Effects and contracts")).to_be_visible()
        await expect(dialog.get_by_text("Source code", exact=True)).to_be_visible()
        await dialog.get_by_role("button", name="Install library").click()
        await expect(view).to_contain_text("Installed env.", timeout=60_000)
        assert (tmp_path / "project" / ".clauz3" / "tools" / "env").is_dir()
        await view.get_by_role("button", name="Installed", exact=True).click()
        await view.get_by_role("searchbox", name="Search libraries").fill("")
        card = view.get_by_role("article", name="Environment variables")
        switch = card.get_by_role("switch", name="Use in new conversations")
        await expect(switch).to_be_checked()
        await switch.uncheck()
        await expect(switch).not_to_be_checked()
        await card.get_by_role("button", name="Remove Environment variables").click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_contain_text("The library leaves this project; a backup copy stays in .clauz3/library-backups.", timeout=60_000)
        await dialog.get_by_role("button", name="Remove library").click()
        await expect(view).to_contain_text("Removed env.", timeout=60_000)
        assert not (tmp_path / "project" / ".clauz3" / "tools" / "env").exists()
        # The conversation's library menu lists installed domains.
        await page.get_by_role("link", name="Chat").click()
        await page.get_by_role("button", name="Libraries for this conversation").click()
        menu = page.get_by_role("group", name="Libraries for this conversation")
        await expect(menu.get_by_role("switch", name="email")).to_be_checked()
        await expect(menu.get_by_role("link", name="Manage libraries →")).to_be_visible()
        await menu.get_by_role("switch", name="email").uncheck()
        await expect(menu).to_contain_text("will be removed")
        await menu.get_by_role("button", name="Apply").click()
        await expect(page.locator("#library-chips")).to_have_text("No libraries", timeout=60_000)
        s.clean()


async def test_workspace_switch_and_tutorial_reset(tmp_path: Path) -> None:
    from playwright.async_api import expect

    other = tmp_path / "other-project"
    other.mkdir()
    async with open_page(tmp_path, bridge=PageOnlyBridge()) as s:
        page = s.page
        await expect(page.get_by_role("button", name="Try the email approvals tutorial")).to_be_visible(timeout=60_000)
        await s.idle()
        await page.get_by_role("button", name="Switch workspace").click()
        menu = page.get_by_role("menu", name="Switch workspace")
        await expect(menu.get_by_role("menuitem", name="Open folder…")).to_be_focused()
        await expect(menu.get_by_role("menuitem", name="Email approvals")).to_be_visible()
        await expect(menu.get_by_role("menuitem", name="Real files")).to_be_visible()
        await page.keyboard.press("Escape")
        await expect(menu).to_be_hidden()
        await expect(page.get_by_role("button", name="Switch workspace")).to_be_focused()
        # Open another folder by its absolute path.
        await page.get_by_role("button", name="Switch workspace").click()
        await menu.get_by_role("menuitem", name="Open folder…").click()
        dialog = page.get_by_role("dialog")
        await dialog.get_by_role("textbox", name="Absolute folder path").fill(os.path.realpath(other))
        async with page.expect_navigation(timeout=60_000):  # WSP-7: a full navigation to /ui
            await dialog.get_by_role("button", name="Open").click()
        await expect(page.get_by_role("button", name="Switch workspace")).to_have_text("other-project▾", timeout=60_000)
        assert s.svc.host.project == os.path.realpath(other)
        await s.idle()
        # The email tutorial, then its reset with confirmation.
        async with page.expect_navigation(timeout=60_000):
            await page.get_by_role("button", name="Try the email approvals tutorial").click()
        await expect(page.get_by_role("heading", name="Email approvals tutorial")).to_be_visible(timeout=60_000)
        await s.idle()
        # Busy: one question (issue 12) — the reset confirmation says the agent is stopped first.
        await s.send("count to 1000 slowly")
        await expect(page.get_by_role("status", name="Activity")).to_be_visible(timeout=60_000)
        await page.get_by_role("button", name="Switch workspace").click()
        await menu.get_by_role("menuitem", name="Reset this tutorial…").click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_contain_text("Start the Email approvals tutorial over?", timeout=60_000)
        await expect(dialog).to_contain_text("Its agent and runs are stopped first.")
        await expect(dialog).not_to_contain_text("This workspace has active work.")
        async with page.expect_navigation(timeout=60_000):
            await dialog.get_by_role("button", name="Reset tutorial").click()
        await expect(page.get_by_role("heading", name="Email approvals tutorial")).to_be_visible(timeout=60_000)
        assert s.svc.host.tutorial == "email"
        s.clean()
