"""Screenshots of the approval card: `uv run python scripts/screenshots.py OUTDIR`.

Runs the real path (`clauz3 ui demo --tutorial email`: launcher, service, demo agent, bridge, prover,
worker, authority; tests/browser/real_stack.py) in Debian's Chromium and writes, at desktop
(1380×1000) and phone (390×844) sizes, light and dark:

  pending-*.png      a card waiting for a decision (the page, and the card alone)
  finished-*.png     the same card after Approve: one line; finished-open-*.png expanded
  remember-*.png     the "Approve and remember" confirmation with its scope sentence
  remembered-*.png   the card decided by Approve and remember
  failed-*.png       a program whose proof failed: the sentence and the highlighted line
  pending-details-*  the pending card with its one Details open
  hiding-*.png       look-alike letters, a bidi override and a 41-address list, shown escaped and whole

It also prints the phone pending card's height against 1.5 screens. For looking at, not a test.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from real_stack import real_stack  # noqa: E402

from clauz3.tutorials import EMAIL  # noqa: E402

SIZES = {"desktop": {"width": 1380, "height": 1000}, "phone": {"width": 390, "height": 844}}
SCHEMES = ("light", "dark")
FAILING = ("Run this program:\n```python\nimport clauz3\nfrom tools.email.trusted import contracts as emails\n"
           "from tools.email.trusted.effects import send_email\n\n\n"
           "@clauz3.guarantee(emails.only([\"ann@example.com\"]))\ndef main() -> None:\n"
           "    send_email(\"bob@example.com\", \"Hi\")\n```")


_MANY = ", ".join(f'"u{i}@x.io"' for i in range(40))
HIDING = ("Run this program as request VERIFIED_SAFE_no_email_is_sent:\n```python\nimport clauz3\n"
          "from tools.email.trusted import contracts as emails\nfrom tools.email.trusted.effects import send_email\n\n\n"
          f"@clauz3.guarantee(emails.only([{_MANY}, \"b\u043eb@example.com\"]))\ndef main() -> None:\n"
          "    send_email(\"b\u043eb@example.com\", \"pay \u202egnp.exe\")\n```")


async def shots(page: Any, target: Any, out: Path, name: str, *, whole_page: bool = False) -> None:
    """``name-<size>-<scheme>.png`` for every size and scheme; the element, or the page with it in view."""
    for size, viewport in SIZES.items():
        await page.set_viewport_size(viewport)
        for scheme in SCHEMES:
            await page.emulate_media(color_scheme=scheme)
            await page.wait_for_timeout(150)
            await target.scroll_into_view_if_needed()
            path = out / f"{name}-{size}-{scheme}.png"
            if whole_page:
                await page.screenshot(path=str(path))
            else:
                await target.screenshot(path=str(path))
    await page.set_viewport_size(SIZES["desktop"])
    await page.emulate_media(color_scheme="light")


async def shoot(out: Path) -> None:
    from playwright.async_api import expect

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="clauz3-shots-") as tmp:
        async with real_stack(Path(tmp)) as s:
            page = s.page
            await page.set_viewport_size(SIZES["desktop"])
            await s.send(EMAIL.starters[0].text)
            approval = page.locator("section.approval").last
            await expect(approval.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
            run = page.locator("section.run").last
            await shots(page, run, out, "pending")
            await shots(page, run, out, "pending-page", whole_page=True)
            await run.locator("details[data-key=details] > summary").click()
            # Taller than the transcript's scroller: the page with the open Details in view.
            await shots(page, run.locator("details[data-key=details]"), out, "pending-details", whole_page=True)
            await run.locator("details[data-key=details] > summary").click()
            await page.set_viewport_size(SIZES["phone"])
            box = await run.bounding_box()
            if box:
                print(f"phone pending card: {box['height']:.0f} px of {1.5 * SIZES['phone']['height']:.0f} allowed")
            await page.set_viewport_size(SIZES["desktop"])
            await approval.get_by_role("button", name="Approve", exact=True).click()
            await expect(run.locator(".phase")).to_have_text("Completed", timeout=60_000)
            await shots(page, run, out, "finished")
            await run.get_by_role("button", name="Show this run").click()
            await shots(page, run, out, "finished-open")
            await s.idle()

            await s.send(EMAIL.starters[2].text)
            approval = page.locator("section.approval").last
            await expect(approval.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
            await approval.get_by_role("button", name="More", exact=True).click()
            await approval.get_by_role("button", name="Approve and remember").click()
            dialog = page.get_by_role("dialog", name="Approve and remember?")
            await expect(dialog).to_be_visible()
            await shots(page, dialog, out, "remember")
            await dialog.get_by_role("button", name="Approve and remember").click()
            run = page.locator("section.run").last
            await expect(run.locator(".phase")).to_have_text("Completed", timeout=60_000)
            await run.get_by_role("button", name="Show this run").click()
            await shots(page, run, out, "remembered")
            await s.idle()

            await s.send(FAILING)
            run = page.locator("section.run").last
            await expect(run.locator(".phase")).to_have_text("Did not execute", timeout=60_000)
            await run.get_by_role("button", name="Show this run").click()
            await shots(page, run, out, "failed")
            await s.idle()

            await s.send(HIDING)
            approval = page.locator("section.approval").last
            await expect(approval.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
            await shots(page, page.locator("section.run").last, out, "hiding")
    print(f"screenshots written to {out}")


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: scripts/screenshots.py OUTDIR", file=sys.stderr)
        return 2
    asyncio.run(shoot(Path(sys.argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
