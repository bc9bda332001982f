"""Issue 11 §6: the card cannot hide things — through the real authority and the approver page.

Each test is an attack a program's author (the agent) could try on today's card: look-alike letters
and bidi controls in a value, a long list that would be cut, a real library used without any
guarantee next to a mock one, and a request id chosen to look like a verdict.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from .conftest import Harness, make_request
from .test_summary import FILES_HEADER, HEADER, card, proved, with_files


def _page(h: Harness, rid: str) -> str:
    return h.client.get(f"/ui/requests/{rid}", headers=h.cookie()).text


def test_lookalike_letters_and_bidi_controls_are_escaped_with_a_warning(harness: Harness) -> None:
    source, facts = proved(harness.project, '''@clauz3.guarantee(emails.only(["b\u043eb@example.com"]))
def main() -> None:
    send_email("b\u043eb@example.com", "invoice \u202egnp.exe\u200b")
''')
    s = card(harness, source, facts, ['emails.only(["b\u043eb@example.com"])'], "req_hide_0001")
    (plan,) = s["plan"]["sentences"]
    assert plan == "Will send 1 mock email to b[U+043E]b@example.com: “invoice [U+202E]gnp.exe[U+200B]”"
    assert s["guarantees"][0]["text"] == "Every email goes to b[U+043E]b@example.com."
    assert s["warnings"] == ["contains characters that change the direction of the text",
                             "contains invisible characters",
                             "contains letters from another alphabet that look like Latin ones"]
    assert "\u202e" not in s["source"] and "\u043e" not in s["source"]
    page = _page(harness, "req_hide_0001")
    assert "\u202e" not in page and "\u043e" not in page and "\u200b" not in page
    assert "Look closely:" in page and "b[U+043E]b@example.com" in page


def test_long_lists_are_counted_and_shown_whole(harness: Harness) -> None:
    addresses = [f"u{i}@x.io" for i in range(300)]  # a guarantee is at most 4,096 characters
    listed = ", ".join(f'"{a}"' for a in addresses)
    expression = f"emails.only([{listed}])"
    source, facts = proved(harness.project, f'''@clauz3.guarantee({expression})
def main() -> None:
    send_email("u299@x.io", "Hi")
''')
    s = card(harness, source, facts, [expression], "req_hide_0002")
    (g,) = s["guarantees"]
    assert g["text"] == "Every email goes to one of 300 addresses."
    (block,) = g["lists"]
    assert block["count"] == 300 and block["items"] == addresses  # whole, in order, nothing cut
    page = _page(harness, "req_hide_0002")
    assert "300 addresses" in page and "u299@x.io" in page and "(+" not in page
    (contract,) = harness.client.get("/api/requests/req_hide_0002", headers=harness.cookie()).json()[
        "presentation"]["contracts"]
    assert contract["call"].count("@x.io") == 300  # the technical call in Details is whole too


def test_real_library_without_guarantees_gets_a_line_and_no_simulated_label(harness: Harness) -> None:
    trusted, headers = with_files(harness)
    source, facts = proved(harness.project, '''@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", read_file("notes.txt"))
''', trusted=trusted, header=FILES_HEADER)
    coverage: list[dict[str, Any]] = [
        {"domain": "email", "status": "covered", "missing_required": [], "missing_recommended": []},
        {"domain": "filesystem", "status": "silent_gap", "missing_required": [], "missing_recommended": []}]
    s = card(harness, source, facts, ["emails.at_most(1)"], "req_hide_0003", trusted=trusted, headers=headers,
             coverage=coverage)
    assert s["simulated"] is False
    lines = {lib["domain"]: lib for lib in s["libraries"]}
    assert set(lines) == {"email", "filesystem"}
    assert lines["filesystem"]["guaranteed"] is False
    assert lines["filesystem"]["line"].endswith("no guarantee about it was stated.")
    assert "acts for real" in lines["filesystem"]["line"]
    response = harness.client.get("/api/requests/req_hide_0003", headers=harness.cookie())
    assert response.json()["presentation"]["mock_notice"] is None
    assert "Uses simulated tools" not in _page(harness, "req_hide_0003")


def test_agent_chosen_request_id_is_only_under_details_and_labelled(harness: Harness) -> None:
    rid = "VERIFIED_SAFE_read_only_no_email_is_sent"
    source = HEADER + '''@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi")
'''
    body = make_request(harness.project, request_id=rid, program=source, guarantees=["emails.at_most(1)"],
                        program_sha256=hashlib.sha256(source.encode()).hexdigest())
    assert harness.submit(body).status_code in (200, 201)
    page = _page(harness, rid)
    before, _, details = page.partition("<details><summary>Details</summary>")
    shown = re.sub(r"<[^>]*>", " ", before.split("<body>", 1)[1])  # what a person reads (attributes aside)
    assert rid not in shown
    assert f"Request id (chosen by the agent): {rid}" in details
    index = harness.client.get("/ui", headers=harness.cookie()).text
    assert ">VERIFIED_SAFE" not in index  # listed by what it does, not by the agent's label
