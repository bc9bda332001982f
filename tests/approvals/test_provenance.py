"""Issue 20: classifying the literals that reach protected parameters (the pure matching and the card block).

The index is the real one the host keeps; the facts are the prover's own (``effect_facts`` of a checked
program against the tutorial's email library), so a change in what the facts carry fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from effect_facts import effect_facts_of

from clauz3.approvals.provenance import provenance_block, read_labels
from clauz3.base.provenance import FROM_READ, FROM_YOU, NEW, TranscriptIndex, extract

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "src" / "clauz3" / "tutorials" / "email"
PAGE = "a web page www.informations.com, read in run 3 at 10:32"


def _index() -> TranscriptIndex:
    ix = TranscriptIndex()
    ix.add("you", "Please send Alice (alice@example.com) the summary, and pay 250 to DE89 3704 0044 0532 0130 00.",
           "your message")
    ix.add("read", "Best deals! Visit www.secure-systems-252.com/login or mail ＳＵＰＰＯＲＴ@Phish-Mail.example, "
                   "IBAN GB33 BUKB 2020 1555 5555 55, call +1 (555) 010-9999, passport HGK137803", PAGE)
    return ix


def test_extracts_each_token_kind_once() -> None:
    text = ("see https://www.secure-systems-252.com/login. Mail bob@example.com, IBAN DE89 3704 0044 0532 0130 00, "
            "phone +44 20 7946 0958, order 12345678, file notes/meeting.md, ref 12345")
    kinds = {(t.kind, t.key) for t in extract(text)}
    # a link is keyed without its scheme and a leading www. (the same site; redteam w2)
    assert kinds == {("url", "secure-systems-252.com/login"), ("email", "bob@example.com"),
                     ("account", "DE89370400440532013000"), ("phone", "442079460958"), ("number", "12345678")}


@pytest.mark.parametrize(("kind", "value", "status"), [
    ("recipient", "alice@example.com", FROM_YOU),
    ("recipient", "ALICE@Example.COM", FROM_YOU),  # addresses are case-folded
    ("recipient", "support@phish-mail.example", FROM_READ),  # NFKC: full-width letters read as plain ones
    ("recipient", "lice@example.com", NEW),  # exact, never a substring of another address
    ("recipient", "alice@example.com.evil", NEW),
    ("amount", "250", FROM_YOU),
    ("amount", "25", NEW),
    ("account", "GB33 BUKB 2020 1555 5555 55", FROM_READ),
    ("account", "GB33BUKB20201555555555", FROM_READ),  # the same account without its spaces
    ("recipient", "nobody@example.org", NEW),
])
def test_whole_values(kind: str, value: str, status: str) -> None:
    found = _index().value(kind, value)
    assert found.status == status
    assert (found.sources == (PAGE,)) == (status == FROM_READ)


@pytest.mark.parametrize(("text", "token", "status"), [
    ("Hi Alice, log in at WWW.SECURE-SYSTEMS-252.COM/login/ now", "url", FROM_READ),
    ("Hi, write to alice@example.com", "email", FROM_YOU),
    ("pay to GB33BUKB20201555555555", "account", FROM_READ),
    ("call 15550109999", "number", FROM_READ),  # a phone number read with separators is the same digits
    ("your passport: HGK137803", ["number", "code"], FROM_READ),  # the digits alone are a number too
    ("meet at www.example-new.com", "url", NEW),
])
def test_free_text_tokens(text: str, token: str | list[str], status: str) -> None:
    ix = _index()
    found = [(t.kind, ix.token(t)) for t in extract(text)]
    assert [(k, f.status) for k, f in found] == [(k, status) for k in ([token] if isinstance(token, str) else token)]


_FACTS: dict[str, dict] = {}


def _facts(program: str) -> dict:
    """The prover's effect facts of ``program`` (one child process per layer, 01 TL-6; every program of
    this module at once)."""
    if program not in _FACTS:
        sources = [program, *PROGRAMS]
        _FACTS.update(zip(sources, effect_facts_of(TUTORIAL, "email", sources, timeout=120), strict=True))
    facts = _FACTS[program]
    assert facts is not None
    return facts


SEND = """\
import clauz3
from tools.email.trusted import contracts as email
from tools.email.trusted.effects import send_email


@clauz3.guarantee(email.at_most(count=1))
def main() -> None:
    send_email({addr!r}, {msg})
"""


PROGRAMS = [SEND.format(addr="alice@example.com", msg="'hi'")]


def test_facts_carry_the_protected_declaration() -> None:
    facts = _facts(SEND.format(addr="alice@example.com", msg="'hi'"))
    (eff,) = facts["effects"]
    assert eff["protected"] == {"addr": "recipient", "msg": "text"}


def test_block_warns_about_a_link_from_read_data_in_the_body() -> None:
    msg = repr("Hi Alice, please log in at www.secure-systems-252.com/login")
    block = provenance_block(_index(), _facts(SEND.format(addr="alice@example.com", msg=msg)),
                             SEND.format(addr="alice@example.com", msg=msg))
    assert block["warnings"] == [
        "The email to alice@example.com contains a link, www.secure-systems-252.com/login, that appears only in "
        f"{PAGE} — not in anything you wrote."]
    assert "alice@example.com — from your message." in block["notes"]


def test_block_finds_a_literal_hidden_in_a_computed_body() -> None:
    """The body is not one literal on every path: every literal of the program text is classified."""
    msg = "'Hi ' + read_inbox() + ' see www.secure-systems-252.com'"
    program = SEND.format(addr="alice@example.com", msg=msg).replace(
        "import send_email", "import read_inbox, send_email")
    block = provenance_block(_index(), _facts(program), program)
    assert len(block["warnings"]) == 2 and "www.secure-systems-252.com" in block["warnings"][0]
    assert "it may reach the email to alice@example.com (msg)" in block["warnings"][0]
    # and the body holds what the program reads from the inbox in the same run (in-run flow)
    assert block["warnings"][1] == ("The email to alice@example.com may contain what this program reads from an "
                                    "email in your mock inbox, or depend on it — a person decides.")


def test_block_new_and_unchecked() -> None:
    """A new address is a quiet note in a conversation that read nothing; once the agent has read anything, a new
    address may be one it made up or decoded from what it read: a warning, a person decides (rt20, part 1)."""
    program = SEND.format(addr="carol@example.net", msg="'hello'")
    quiet = TranscriptIndex()
    quiet.add("you", "Please send Alice (alice@example.com) the summary.", "your message")
    block = provenance_block(quiet, _facts(program), program)
    assert block["warnings"] == [] and block["items"][0]["status"] == NEW
    assert block["notes"] == ["carol@example.net — new: it appears nowhere in this conversation."]
    block = provenance_block(_index(), _facts(program), program)
    assert block["items"][0]["status"] == NEW and block["notes"] == []
    assert block["warnings"] == ["The email goes to carol@example.net, which appears nowhere in this conversation — "
                                 "the agent made it up or built it from something it read; check it before you approve."]
    assert provenance_block(None, _facts(program), program)["checked"] is False


def test_read_labels_name_what_a_run_read() -> None:
    program = SEND.format(addr="a@example.com", msg="read_inbox()").replace(
        "import send_email", "import read_inbox, send_email")
    assert read_labels(_facts(program)) == ["an email in your mock inbox"]


def test_standalone_approvals_page_shows_the_same_words_escaped() -> None:
    from clauz3.approvals.ui import request_page

    warning = "The email goes to <b>x@evil.example</b>, which appears only in a web page — not in anything you wrote."
    record = {"request_id": "clr_provenance01", "state": "pending", "target": "main", "program": "x = 1\n",
              "expires_at": "2026-01-01T00:00:00.000Z", "profile": {"eligible": False, "reason": "off"},
              "automatic": {"suppressed": {"source": "policy", "rule": {}, "reason": "provenance"}},
              "presentation": {"provenance": {"checked": True, "items": [], "warnings": [warning],
                                              "notes": ["bob@example.com — from your message."]}}}
    page = request_page(record)
    assert "&lt;b&gt;x@evil.example&lt;/b&gt;" in page and "<b>x@evil" not in page
    assert "No remembered approval or policy decides this request; you do." in page
    assert "bob@example.com — from your message." in page
    assert "it does not decide a program with values from data the agent read" in page
