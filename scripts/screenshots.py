"""Screenshots of the workspace page: `uv run python scripts/screenshots.py OUTDIR`.

Starts an in-process workspace service on the email tutorial (demo agent, the tests' stand-in
lifetime bridge so an approval card appears without the full bridge), drives Debian's Chromium
and writes: chat-approval.png, libraries.png, approvals.png, files.png, mobile.png,
mobile-sidebar.png, dark.png. For looking at the UI, not a test.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_harness import MOBILE, open_page  # noqa: E402

from clauz3.tutorials import EMAIL  # noqa: E402


async def shoot(out: Path) -> None:
    from playwright.async_api import expect

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="clauz3-shots-") as tmp:
        base = Path(tmp)
        (base / "a").mkdir()
        async with open_page(base / "a", tutorial="email") as s:
            page = s.page
            await s.send(EMAIL.starters[0].text)
            card = page.locator("section.approval")
            await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=30_000)
            await card.scroll_into_view_if_needed()
            await page.screenshot(path=str(out / "chat-approval.png"))
            await page.get_by_role("button", name="Files", exact=True).click()
            await page.get_by_role("region", name="Files").get_by_role("button", name="Folder tools").click()
            await page.wait_for_timeout(300)
            await page.screenshot(path=str(out / "files.png"))
            await page.get_by_role("button", name="Close files").click()
            await card.get_by_role("button", name="Approve and remember").click()
            await expect(page.locator("section.run .phase")).to_have_text("Completed", timeout=30_000)
            await page.get_by_role("link", name="Libraries", exact=True).click()
            await expect(page.locator("#view-libraries article").first).to_be_visible(timeout=15_000)
            await page.screenshot(path=str(out / "libraries.png"))
            await page.get_by_role("link", name="Approvals", exact=True).click()
            await expect(page.locator("#view-approvals").get_by_role("heading", name="Decision history")).to_be_visible(timeout=15_000)
            await page.screenshot(path=str(out / "approvals.png"))
        (base / "b").mkdir()
        async with open_page(base / "b", tutorial="email", viewport=MOBILE) as s:
            page = s.page
            await s.send(EMAIL.starters[0].text)
            card = page.locator("section.approval")
            await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=30_000)
            await page.screenshot(path=str(out / "mobile.png"))
            await page.get_by_role("button", name="Show sidebar").click()
            await page.wait_for_timeout(300)
            await page.screenshot(path=str(out / "mobile-sidebar.png"))
        (base / "c").mkdir()
        async with open_page(base / "c", tutorial="email", color_scheme="dark") as s:
            page = s.page
            await s.send(EMAIL.starters[1].text)
            card = page.locator("section.approval")
            await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=30_000)
            await page.screenshot(path=str(out / "dark.png"))
    print(f"screenshots written to {out}")


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: scripts/screenshots.py OUTDIR", file=sys.stderr)
        return 2
    asyncio.run(shoot(Path(sys.argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
