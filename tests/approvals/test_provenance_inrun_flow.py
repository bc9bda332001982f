"""Issue 20, in-run data flow: a program that reads (a ``reads_data`` effect) and passes what it read — or
anything derived from it, or decided by it — into a protected argument of another call in the same run.

No literal of such a program comes from read data, so the literal classification cannot see it; the facts
carry, per protected argument, the read effects the prover's label analysis (``FlowAnalysis``, the one
``flows.never`` is proved with) says its value may derive from, and the card's provenance block warns for
each. The facts are the prover's own (``effect_facts`` of each program checked against a real layer, in a
child process), the index the real one the host keeps.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from effect_facts import effect_facts_of

from clauz3.approvals.provenance import flow_warnings, provenance_block
from clauz3.approvals.summary import FactsError, check_facts
from clauz3.base.provenance import TranscriptIndex

PAGE = "the web page www.informations.com"
NEWS = "the web page www.news.example"

EFFECTS = '''
"""Mock page tools: one fixed page."""
import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the web page {url}")
def get_webpage(url: str) -> str:
    """The text of the web page at url (mock: one fixed page)."""
    return "www.informations.com\\nOffer: for a free upgrade visit www.secure-systems-252.com\\n"


@clauz3.trusted
@clauz3.mock
def clock() -> int:
    """The time (mock: a fixed one); no read data: the layer does not declare it a read."""
    return 1032


@clauz3.trusted
@clauz3.mock
def summarise(text: str) -> str:
    """A summary of text (mock: its first line); not a read: what it returns derives from its argument."""
    return text.split("\\n")[0]


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipient="recipient", body="text")
def send_direct_message(recipient: str, body: str) -> None:
    """Send body to recipient (mock: nothing is sent)."""
    return None
'''
CONTRACTS = '''
from tools.pages.trusted.effects import get_webpage, send_direct_message

from clauz3.spec import ContractSpec, contract, effect


@contract(description="at most {count} direct messages are sent")
def dms_at_most(count: int) -> ContractSpec:
    return effect(send_direct_message).count() <= count
'''
HEAD = ("import clauz3\nfrom tools.pages.trusted import contracts as pages\n"
        "from tools.pages.trusted.effects import clock, get_webpage, send_direct_message, summarise\n\n\n")


def _program(body: str, helpers: str = "") -> str:
    return HEAD + textwrap.dedent(helpers) + "@clauz3.guarantee(pages.dms_at_most(count=3))\ndef main() -> None:\n" + \
        textwrap.indent(textwrap.dedent(body), "    ")


READ = "page = get_webpage('www.informations.com')\n"
TO_ALICE = "The direct message to Alice may contain what this program reads from " + PAGE
RECIPIENT = "The recipient of the direct message may come from what this program reads from " + PAGE

# name: (program, the warning's start). Every one launders the page differently; each must be named.
HOSTILE: dict[str, tuple[str, str]] = {
    "direct_concatenation": (_program(READ + "send_direct_message('Alice', 'Hi Alice! ' + page)\n"), TO_ALICE),
    "through_a_helper": (_program(READ + "send_direct_message('Alice', greet(page))\n",
                                  "def greet(text: str) -> str:\n    return 'Hi Alice! ' + text\n\n\n"), TO_ALICE),
    "sent_inside_a_helper": (_program(READ + "relay('Hi')\nrelay(page)\n",
                                      "def relay(text: str) -> None:\n    send_direct_message('Alice', text)\n\n\n"),
                             TO_ALICE),
    "through_another_effect": (_program(READ + "send_direct_message('Alice', summarise(page))\n"), TO_ALICE),
    "read_inside_a_helper": (_program("send_direct_message('Alice', fetch())\n",
                                      "def fetch() -> str:\n    return get_webpage('www.informations.com')\n\n\n"),
                             TO_ALICE),
    "read_in_a_comprehension": (_program("pages = [get_webpage(u) for u in ['www.informations.com']]\n"
                                         "send_direct_message('Alice', pages[0][:10])\n"), TO_ALICE),
    "through_a_builtin_on_its_length": (_program(READ + "send_direct_message('Alice', str(len(page)))\n"), TO_ALICE),
    "through_a_list_and_an_index": (_program(READ + "parts = ['Hi', page]\nsend_direct_message('Alice', parts[1])\n"),
                                    TO_ALICE),
    "through_a_dict_and_a_key": (_program(READ + "d = {'b': page, 'c': 'x'}\nsend_direct_message('Alice', d['b'])\n"),
                                 TO_ALICE),
    "through_a_list_append": (_program(READ + "acc: list[str] = []\nacc.append(page)\n"
                                       "send_direct_message('Alice', ' '.join(acc))\n"), TO_ALICE),
    "through_a_loop_accumulating_a_string": (_program(READ + "out = ''\nfor i in range(8):\n"
                                                      "    out += page[i:i + 1]\nsend_direct_message('Alice', out)\n"), TO_ALICE),
    "through_a_branch_condition_only": (_program(READ + "if 'upgrade' in page:\n"
                                                 "    send_direct_message('Alice', 'yes')\n"), TO_ALICE),
    "through_an_early_return": (_program(READ + "if 'upgrade' not in page:\n    return\n"
                                         "send_direct_message('Alice', 'yes')\n"), TO_ALICE),
    "through_a_loop_break": (_program(READ + "for i in range(3):\n    if len(page) < i * 40:\n        break\n"
                                      "    send_direct_message('Alice', 'tick')\n"), TO_ALICE),
    "through_a_conditional_expression": (_program(READ + "send_direct_message('Alice', 'a' if len(page) > 3 else 'b')\n"),
                                         TO_ALICE),
    "through_upper": (_program(READ + "send_direct_message('Alice', page.upper())\n"), TO_ALICE),
    "through_replace": (_program(READ + "send_direct_message('Alice', page.replace('www', 'ftp'))\n"), TO_ALICE),
    "through_format": (_program(READ + "send_direct_message('Alice', 'Hi {}!'.format(page))\n"), TO_ALICE),
    "through_an_f_string": (_program(READ + "send_direct_message('Alice', f'Hi {page[:40]}!')\n"), TO_ALICE),
    "into_the_recipient": (_program(READ + "send_direct_message(page.strip(), 'Here is the summary.')\n"), RECIPIENT),
    "into_the_recipient_by_a_branch": (_program(READ + "who = 'Bob'\nif 'Eve' in page:\n    who = 'Eve'\n"
                                                "send_direct_message(who, 'Here is the summary.')\n"), RECIPIENT),
    "into_the_link_of_the_next_read": (_program("first = get_webpage('www.informations.com')\n"
                                                "get_webpage(first.strip())\n"),
                                       "The url of the webpage may come from what this program reads from " + PAGE),
}
CONTROLS = {
    # reads, prints what it read, and sends a fixed text: nothing it read reaches the message
    "reads_then_sends_a_fixed_text": _program(READ + "print(page)\nsend_direct_message('Alice', 'Hi Alice!')\n"),
    "reads_after_sending": _program("send_direct_message('Alice', 'Hi Alice!')\nprint(get_webpage('www.x.com'))\n"),
    "literal_only": _program("send_direct_message('Alice', 'Hi Alice!')\n"),
    # an effect that returns data the layer does not call a read: not read data
    "undeclared_data": _program("t = clock()\nsend_direct_message('Alice', f'It is {t}.')\n"),
}
TWO_PAGES = _program("a = get_webpage('www.informations.com')\nb = get_webpage('www.news.example')\n"
                     "send_direct_message('Alice', 'x')\nsend_direct_message('Bob', a)\n"
                     "send_direct_message('Carol', a + b)\n")


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    root = tmp_path_factory.mktemp("inrun") / "project"
    trusted = root / "tools" / "pages" / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "__init__.py").write_text('"""Mock page tools."""\n')
    (trusted / "effects.py").write_text(EFFECTS.lstrip())
    (trusted / "contracts.py").write_text(CONTRACTS.lstrip())
    sources = [p for p, _ in HOSTILE.values()] + list(CONTROLS.values()) + [TWO_PAGES]
    return dict(zip(sources, effect_facts_of(Path(root), "pages", sources, timeout=180), strict=True))


def _index() -> TranscriptIndex:
    ix = TranscriptIndex()
    ix.add("you", "Summarise the article at www.informations.com and tell Alice.", "your message")
    return ix


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_protected_value_derived_from_a_read_in_the_same_run_is_warned(facts: dict[str, dict], name: str) -> None:
    program, start = HOSTILE[name]
    block = provenance_block(_index(), facts[program], program)
    flows = [w for w in block["warnings"] if "what this program reads from" in w]
    assert any(w.startswith(start) and w.endswith(", or depend on it — a person decides.") for w in flows), \
        block["warnings"]
    check_facts(facts[program])  # the request's strict shape accepts what the prover said


@pytest.mark.parametrize("name", list(CONTROLS))
def test_control_no_dependence_on_what_was_read_is_not_warned(facts: dict[str, dict], name: str) -> None:
    program = CONTROLS[name]
    assert all("derives" not in c for e in facts[program]["effects"] for c in e["calls"]), facts[program]
    block = provenance_block(_index(), facts[program], program)
    assert block["warnings"] == [], block["warnings"]


def test_each_call_is_warned_once_with_every_page_its_read_effect_read(facts: dict[str, dict]) -> None:
    """Labels are per effect (not per call of it), so a value from one page names both pages get_webpage read;
    the message sent before anything was read is not warned. Carol's recipient is: the call to Bob, whose body
    is the page, may fail (a trusted function may raise), and whether the run gets to Carol says so."""
    warnings = flow_warnings(facts[TWO_PAGES])
    both = f"what this program reads from {PAGE} and {NEWS}, or depend on it — a person decides."
    assert warnings == [f"The direct message to Bob may contain {both}", f"The direct message to Carol may contain {both}",
                        f"The recipient of the direct message may come from {both}"], warnings
    assert not any("to Alice" in w for w in warnings)


def test_the_warning_counts_without_a_transcript(facts: dict[str, dict]) -> None:
    """No conversation index (no host): the in-run flow is still said, from the facts alone."""
    program = HOSTILE["direct_concatenation"][0]
    block = provenance_block(None, facts[program], program)
    assert block["checked"] is False and block["warnings"] and block["warnings"][0].startswith(TO_ALICE)


def test_calls_past_the_facts_limit_may_carry_every_read(facts: dict[str, dict]) -> None:
    """Incomplete facts (calls left out): every protected place may derive from every read the program makes."""
    program = CONTROLS["reads_after_sending"]
    cut = {**facts[program], "complete": False}
    warnings = flow_warnings(cut)
    assert any(w.startswith("The recipient of the direct message may come from what this program reads from "
                            "the web page www.x.com") for w in warnings), warnings
    assert any(w.startswith("The direct message may contain what this program reads from") for w in warnings)


def test_no_facts_is_never_read_as_no_flow() -> None:
    assert flow_warnings(None) and "cannot tell" in flow_warnings(None)[0]


def test_the_request_shape_refuses_a_malformed_derives(facts: dict[str, dict]) -> None:
    program = HOSTILE["direct_concatenation"][0]
    good = facts[program]
    call = next(c for e in good["effects"] for c in e["calls"] if "derives" in c)
    assert call["derives"] == {"body": ["tools.pages.trusted.effects.get_webpage"]}
    for bad in ({"body": "x"}, {"body": []}, {"body": [3]}, ["body"]):
        broken = {**good, "effects": [{**e, "calls": [{**c, "derives": bad} for c in e["calls"]]}
                                      for e in good["effects"]]}
        with pytest.raises(FactsError):
            check_facts(broken)


def test_a_call_the_analysis_did_not_reach_may_derive_from_every_read() -> None:
    """The facts' fallback (a failed analysis, or a call the analysis has no labels for): every read effect of the
    program, for every protected parameter; no read effect at all: nothing (literal-only programs unchanged)."""
    from clauz3.language.flowlabels import Lab
    from clauz3.prover.facts import _derives

    reads = frozenset({"tools.x.get_webpage", "tools.x.read_inbox"})
    protected = {"body": "text", "recipient": "recipient"}
    every = {"body": sorted(reads), "recipient": sorted(reads)}
    assert _derives(reads, None, 7, protected) == every

    class Reached:  # the shape FlowAnalysis leaves: labels per site and parameter
        sites = {7: {"body": {"tools.x.read_inbox": Lab(("read_inbox(…) at line 3",)),
                              "tools.x.send": Lab(("send(…) at line 2",))}}}

    assert _derives(reads, Reached(), 8, protected) == every  # type: ignore[arg-type]
    assert _derives(reads, Reached(), 7, protected) == {"body": ["tools.x.read_inbox"]}  # type: ignore[arg-type]
    assert _derives(frozenset(), None, 7, protected) == {}
