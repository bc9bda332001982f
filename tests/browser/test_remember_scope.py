"""Remember states its scope and asks (issue 12), on the real path (`clauz3 ui demo --tutorial email`:
real launcher, demo agent, MCP bridge, prover, run worker and approval authority with its own prover
child): the confirmation says, in the card's sentences, that any program whose guarantees are at least
as strict runs without asking; a later stricter program with other text runs without a card and its
card names the remembered rule; a later weaker program gets a card, whose Reject and remember states
its exact reach; the Approvals view lists both rules as sentences, and a disabled rule can be enabled again.
"""

from __future__ import annotations

from pathlib import Path

from browser_harness import needs_chromium
from real_stack import real_stack

from clauz3.tutorials import EMAIL

pytestmark = needs_chromium

HEAD = ("import clauz3\n"
        "from tools.email.trusted import contracts as emails\n"
        "from tools.email.trusted.effects import send_email\n\n\n")
# What is remembered: bob or ann, at most 2 emails; it sends one.
LOOSE = HEAD + ('@clauz3.guarantee(emails.only(["bob@example.com", "ann@example.com"]))\n'
                "@clauz3.guarantee(emails.at_most(2))\n"
                "def main() -> None:\n"
                '    send_email("ann@example.com", "Remember me")\n')
# Outside it: three emails, under a guarantee of at most 3.
WEAKER = HEAD + ('@clauz3.guarantee(emails.only(["bob@example.com", "ann@example.com"]))\n'
                 "@clauz3.guarantee(emails.at_most(3))\n"
                 "def main() -> None:\n"
                 '    send_email("bob@example.com", "one")\n'
                 '    send_email("ann@example.com", "two")\n'
                 '    send_email("bob@example.com", "three")\n')


def run_prompt(source: str) -> str:
    return f"Run this program:\n```python\n{source}```"


async def test_remember_covers_stricter_programs_and_says_so(tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with real_stack(tmp_path) as s:
        page = s.page
        await s.send(run_prompt(LOOSE))
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        await card.get_by_role("button", name="More", exact=True).click()
        await expect(card.get_by_text("programs whose guarantees are at least as strict")).to_be_visible()
        await card.get_by_role("button", name="Approve and remember").click()
        dialog = page.get_by_role("dialog", name="Approve and remember?")
        scope = dialog.locator(".remember-scope")
        await expect(scope).to_contain_text(
            "From now on, any program in this project whose guarantees are at least as strict as these will run "
            "without asking — with any message text or other values:")
        items = scope.locator("li")
        await expect(items).to_have_text(["Every email goes to one of bob@example.com or ann@example.com.",
                                          "At most 2 emails are sent."])
        await expect(scope).to_contain_text("clauz3 must prove that the program keeps every one of them")
        await expect(scope).to_contain_text("Any other program gets a card.")
        await dialog.get_by_role("button", name="Approve and remember").click()
        await expect(card).to_contain_text("Decision: Approved and remembered", timeout=60_000)
        await s.idle()

        # Stricter (only bob, at most 1, no address twice) and other text: no card, the rule decides.
        await s.send(EMAIL.starters[2].text)
        runs = page.locator("section.run")
        await expect(runs).to_have_count(2, timeout=60_000)
        await expect(runs.last.locator(".card-head .one-line")).to_contain_text("Approved by your rule",
                                                                               timeout=60_000)
        await s.idle()
        second = (await s.runs())[-1]
        assert second["phase"] == "completed", second
        assert second["approval"]["decision"] == "auto_approved" and second["approval"]["decided_by"] == "profile"
        await runs.last.get_by_role("button", name="Show this run").click()
        await expect(runs.last.locator(".rule-sentence")).to_have_text(
            "Approved by your rule: every email goes to one of bob@example.com or ann@example.com; at most 2 emails "
            "are sent — this program is proved to keep every one.")
        await expect(runs.last.get_by_role("button", name="Approve", exact=True)).to_have_count(0)

        # Weaker (three emails): outside the rule, so the person gets a card.
        await s.send(run_prompt(WEAKER))
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=60_000)
        assert (await s.approval(await card.get_attribute("data-request-id") or ""))["state"] == "pending"
        # Reject and remember states its own, exact reach.
        await card.get_by_role("button", name="More", exact=True).click()
        await card.get_by_role("button", name="Reject and remember").click()
        dialog = page.get_by_role("dialog", name="Reject and remember?")
        scope = dialog.locator(".remember-scope")
        await expect(scope).to_contain_text("any program in this project that states exactly these guarantees")
        await expect(scope).to_contain_text("will be rejected without asking")
        await expect(scope.locator("li")).to_have_text(["Every email goes to one of bob@example.com or ann@example.com.",
                                                        "At most 3 emails are sent."])
        await expect(scope).to_contain_text("A program with any other guarantees still gets a card.")
        await dialog.get_by_role("button", name="Reject and remember").click()
        await expect(card).to_contain_text("Decision: Rejected", timeout=60_000)
        await s.idle()

        # The Approvals view: each rule as a sentence; a disabled rule can be enabled again.
        await page.get_by_role("link", name="Approvals", exact=True).click()
        view = page.locator("#view-approvals")
        await expect(view.locator("li.rule")).to_have_count(2, timeout=60_000)
        await expect(view.locator("li.rule .rule-text")).to_have_text([
            "Rejects without asking: programs whose guarantees are exactly — every email goes to one of "
            "bob@example.com or ann@example.com; at most 3 emails are sent.",
            "Runs without asking: programs whose guarantees are at least as strict as — every email goes to "
            "one of bob@example.com or ann@example.com; at most 2 emails are sent."])
        rule = view.locator("li.rule").filter(has_text="Runs without asking")
        await rule.get_by_role("button", name="Disable rule").click()
        await expect(view).to_contain_text("Rule disabled.")
        rule = view.locator("li.rule").filter(has_text="Runs without asking")
        await rule.get_by_role("button", name="Enable rule").click()
        await expect(view).to_contain_text("Rule enabled.")
        await expect(view.locator("li.rule").get_by_role("button", name="Disable rule")).to_have_count(2)
        s.clean()
