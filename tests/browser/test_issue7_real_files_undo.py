"""Issue 7 acceptance 3: in the Real files tutorial the demo agent edits two files through one proved run,
`Undo file changes` restores both, and a file changed by hand after a run is reported and left alone
while the other file is restored (05 FS-6, FS-7, TUT-13/14).

The whole stack is real: `clauz3 ui demo --tutorial real-files` (launcher, service, demo agent, MCP
bridge, run worker, approval authority) driven in Debian's Chromium; the files are checked as bytes on
disk in the tutorial copy under CLAUZ3_HOME.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_harness import ARGS, CHROMIUM, HAS_CHROMIUM, launch_ui, stop_ui, ui_env

from clauz3.agents.demo.programs import Modules, build
from clauz3.agents.demo.script import AppendTwoFiles, BadArgument, parse

PHRASE = 'append the line "done" to notes/groceries.txt and notes/meeting.md'
FILES = ("notes/groceries.txt", "notes/meeting.md")


def test_two_file_phrase_parses_to_one_program_with_two_writes() -> None:
    intent = parse(PHRASE).intent
    assert intent == AppendTwoFiles("done", FILES)
    source = build(intent, Modules.default("filesystem")).source
    assert "only_write_files(paths=['notes/groceries.txt', 'notes/meeting.md'])" in source
    assert "writes_at_most(n=2)" in source and source.count("    append_file(") == 2
    # A one-file append still means the one-file template, and a doubled file is refused with a rule.
    assert not isinstance(parse('append the line "a and b" to notes/x.txt').intent, AppendTwoFiles)
    assert isinstance(parse('append "x" to notes/a.txt and ./notes/a.txt').intent, BadArgument)
    assert isinstance(parse('append "x" to notes/a.txt and ../b.txt').intent, BadArgument)


def tutorial_copy(home: Path) -> Path:
    copy = home / "tutorials" / "real-files"
    assert (copy / ".clauz3-tutorial.json").is_file(), sorted(str(p) for p in home.rglob("*tutorial*"))
    return copy


def snapshot(copy: Path) -> dict[str, bytes]:
    return {name: (copy / name).read_bytes() for name in FILES}


async def run_phrase_and_approve(page: Any) -> Any:
    """Send the two-file phrase, approve the proved program, wait for the run to complete; the run card."""
    from playwright.async_api import expect

    before = await page.locator("section.run").count()
    await page.get_by_role("textbox", name="Message Demo").fill(PHRASE)
    send = page.get_by_role("button", name="Send", exact=True)
    await expect(send).to_be_enabled(timeout=60_000)
    await send.click()
    await expect(page.locator("section.run")).to_have_count(before + 1, timeout=60_000)
    run = page.locator("section.run").last
    card = page.locator("section.approval").last
    await expect(card).to_contain_text("Verified limits", timeout=60_000)
    await expect(card).to_contain_text("filesystem.writes_at_most(n=2)")
    approve = card.get_by_role("button", name="Approve", exact=True)
    await expect(approve).to_be_enabled()
    await approve.click()
    await expect(run.locator(".phase")).to_have_text("Completed", timeout=60_000)
    return run


async def confirm_undo(page: Any, run: Any) -> Any:
    """Press `Undo file changes`, check the confirmation lists both files, confirm; the results list."""
    from playwright.async_api import expect

    # Undo is refused while any run is active (FS-6); wait until the agent's turn is over.
    await expect(page.locator("#status-text")).to_have_text("Ready", timeout=60_000)
    undo = run.get_by_role("button", name="Undo file changes")
    await expect(undo).to_be_visible(timeout=60_000)
    await undo.click()
    dialog = page.get_by_role("dialog")
    for name in FILES:
        await expect(dialog).to_contain_text(f"{name} — append_file")
    await dialog.get_by_role("button", name="Undo file changes").click()
    return run.get_by_role("list", name="Undo results")


@pytest.mark.browser
@pytest.mark.skipif(not HAS_CHROMIUM, reason="chromium is not installed at /usr/bin/chromium")
async def test_real_files_two_file_run_undo_restores_both_and_spares_a_hand_edit(tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    home = tmp_path / "home"
    proc, link = launch_ui("demo", "--tutorial", "real-files", env=ui_env(home))
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
                    (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/", "blob:", "data:")) else None)
                await page.goto(link)
                await expect(page.get_by_role("button", name="Change and undo")).to_be_visible(timeout=60_000)
                copy = tutorial_copy(home)
                original = snapshot(copy)

                # Scenario 1: one proved run changes both files; Undo restores both, byte for byte.
                run = await run_phrase_and_approve(page)
                after = snapshot(copy)
                assert after == {name: original[name] + b"done\n" for name in FILES}
                results = await confirm_undo(page, run)
                for name in FILES:
                    await expect(results).to_contain_text(f"{name}: Restored", timeout=60_000)
                await expect(run).to_contain_text("File changes undone.", timeout=60_000)
                await expect(run.get_by_role("button", name="Undo file changes")).to_have_count(0)
                assert snapshot(copy) == original

                # Scenario 2: after a second run, a person edits groceries.txt by hand; Undo reports it as
                # changed since the run and leaves the hand edit, while meeting.md is restored.
                run = await run_phrase_and_approve(page)
                assert snapshot(copy) == {name: original[name] + b"done\n" for name in FILES}
                hand = original[FILES[0]] + b"done\nedited by hand\n"
                (copy / FILES[0]).write_bytes(hand)
                results = await confirm_undo(page, run)
                await expect(results).to_contain_text(f"{FILES[0]}: Changed since the run — left alone",
                                                      timeout=60_000)
                await expect(results).to_contain_text(f"{FILES[1]}: Restored")
                assert (copy / FILES[0]).read_bytes() == hand
                assert (copy / FILES[1]).read_bytes() == original[FILES[1]]
                assert errors == []
                assert outside == []
            finally:
                await browser.close()
    finally:
        stop_ui(proc)
    assert proc.returncode in (0, 130), proc.returncode
