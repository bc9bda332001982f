"""The page's constants (run phases and their words) are served by the workspace (issue 15)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sessions_harness import Harness, signed_in

from clauz3.approvals.decisions import MAX_FEEDBACK
from clauz3.runs.records import Phase
from clauz3.sessions.conversation.attachments import MAX_BYTES, MAX_UNSENT
from clauz3.sessions.conversation.conversation import MAX_PROMPT
from clauz3.sessions.conversation.ws_requests import MAX_TITLE
from clauz3.sessions.web.page_constants import PLACEHOLDER, page_constants, page_html

WEB = Path(__file__).resolve().parents[2] / "src" / "clauz3" / "sessions" / "web" / "static"

BLOCK = re.compile(r'<script type="application/json" id="page-constants">(.*?)</script>', re.S)


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path) as harness:
        yield harness


async def test_the_signed_in_page_carries_every_phase_and_the_bare_one_none(svc: Harness) -> None:
    async with svc.client() as c:
        bare = await c.get("/ui")
        page = await c.get("/ui", cookies=svc.cookies())
    assert bare.status_code == 401 and "page-constants" not in bare.text
    assert page.status_code == 200
    [text] = BLOCK.findall(page.text)
    served = json.loads(text)
    assert served["version"] == 1
    assert [p["name"] for p in served["phases"]] == [p.value for p in Phase]
    assert {p["name"] for p in served["phases"] if p["final"]} == {
        "completed", "refused", "failed", "cancelled", "uncertain"}
    assert all(p["label"] for p in served["phases"])
    assert {p["name"] for p in served["phases"] if p["ran"]} == {"executing", "completed", "failed", "uncertain"}
    assert {p["name"] for p in served["phases"] if p["early_end"]} == {"cancelled", "failed", "uncertain"}
    activity = {p["name"]: p["activity"] for p in served["phases"]}
    assert activity["awaiting_approval"] == "Waiting for your approval" and activity["completed"] is None
    assert served["limits"] == {"prompt_chars": MAX_PROMPT, "attachment_bytes": MAX_BYTES, "attachments": MAX_UNSENT,
                                "feedback_chars": MAX_FEEDBACK, "title_chars": MAX_TITLE}


def test_the_page_holds_no_copy_of_a_server_limit() -> None:
    """The limits reach the page only through the served block (constants.js reads them)."""
    scripts = {p.name: p.read_text("utf-8") for p in sorted(WEB.glob("*.js"))}
    assert len(scripts) > 10
    values = {MAX_PROMPT, MAX_BYTES}  # unambiguous numbers; the small ones are caught where they are used
    copies = {name: found for name, text in scripts.items()
              if (found := [m for m in re.findall(r"\b\d{4,}\b", text) if int(m) in values])
              or (found := re.findall(r'maxlength: "\d+"', text))}
    assert copies == {}
    assert re.findall(r"\b\d{4,}\b", "const MAX_PROMPT = 20000;") == ["20000"]  # the scan finds a copy


def test_injection_escapes_and_needs_exactly_one_block() -> None:
    html = page_html(f"<head>{PLACEHOLDER}</head>")
    [text] = BLOCK.findall(html)
    assert json.loads(text) == page_constants() and "<" not in text
    with pytest.raises(ValueError):
        page_html("<head></head>")
