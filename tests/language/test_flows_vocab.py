"""Issue 20: flows.never / flows.only in the vocabulary, compiled against the layer, proved by `clauz3 prove`."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clauz3.language import ir
from clauz3.language.flowlabels import flow_sentence
from clauz3.spec import FlowSpec, effect, flows

EFFECTS = '''
import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the web page {url}")
def get_page(url: str) -> str:
    """The text of a web page."""
    return "page"


@clauz3.trusted
@clauz3.mock
def send(to: str, body: str) -> None:
    """Send body to to."""
'''
CONTRACTS = '''
from tools.demo.trusted.effects import get_page, send

from clauz3.spec import ContractSpec, contract, effect, flows


@contract()
def web_not_in_body() -> ContractSpec:
    return flows.never(from_=get_page, into=effect(send).body)


@contract(description="recipients come only from the program")
def recipients_literal() -> ContractSpec:
    return flows.only(from_=[], into=effect(send).to)


@contract(description="typo")
def typo() -> ContractSpec:
    return flows.never(from_=get_page, into=effect(send).bdy)
'''
PROGRAM = '''
import clauz3
from tools.demo.trusted import contracts as demo
from tools.demo.trusted.effects import get_page, send


@clauz3.guarantee(demo.{helper}())
def main() -> None:
    page = get_page("u")
{body}
'''


def _prove(tmp_path: Path, helper: str, body: str) -> subprocess.CompletedProcess[str]:
    trusted = tmp_path / "tools" / "demo" / "trusted"
    trusted.mkdir(parents=True, exist_ok=True)
    (trusted / "__init__.py").write_text("")
    (trusted / "effects.py").write_text(EFFECTS)
    (trusted / "contracts.py").write_text(CONTRACTS)
    prog = tmp_path / "main.py"
    prog.write_text(PROGRAM.format(helper=helper, body=textwrap.indent(textwrap.dedent(body), "    ")))
    return subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", "--json",
                           "--trusted-root", "tools/demo/trusted", "main.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


def _guarantee(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    doc = json.loads(done.stdout)
    entry = doc["entries"][0]
    found = [o for o in entry["obligations"] if o["kind"] == "guarantee"]
    assert len(found) == 1, done.stdout
    return found[0]


def test_the_vocabulary_refuses_what_is_not_a_flow() -> None:
    with pytest.raises(TypeError):
        flows.never(from_=[], into=effect("send").body)
    with pytest.raises(TypeError):
        flows.never(from_="get_page", into="send.body")
    with pytest.raises(TypeError):
        flows.only(from_=[lambda: 1], into=effect("send").body)
    with pytest.raises(TypeError):
        flows.never(from_="get_page", into=effect().body)  # every effect: name the effect
    spec = flows.only(from_=[], into=[effect("send").to, effect("send").body])
    assert isinstance(spec, FlowSpec) and spec.mode == "only" and len(spec.sinks) == 2
    assert effect("log").param("count").param == "count"  # `count` is also a relation method
    with pytest.raises(TypeError):
        flows.never(from_="get_page", into=effect("log").count)
    with pytest.raises(AttributeError):
        _ = effect("send").__wrapped__  # dunder lookups are not parameters


def test_the_card_sentence_is_plain_words() -> None:
    never = ir.FlowSpec("never", ("t.fx.get_webpage",), (("t.fx.send_direct_message", "body"),
                                                          ("t.fx.send_direct_message", "recipient")))
    assert flow_sentence(never) == ("Nothing read by get_webpage reaches send_direct_message's body or "
                                    "send_direct_message's recipient.")
    only = ir.FlowSpec("only", ("t.fx.get_users",), (("t.fx.send", "to"),))
    assert flow_sentence(only) == "Send's to: only from what get_users returned, or from the program itself."


def test_an_unknown_parameter_is_a_contract_error(tmp_path: Path) -> None:
    done = _prove(tmp_path, "typo", 'send("a", "b")')
    assert done.returncode == 2
    assert "contract-error" in done.stderr and "`bdy` is not a parameter of send" in done.stderr, done.stderr


def test_prove_decides_it_and_names_the_path(tmp_path: Path) -> None:
    ok = _prove(tmp_path, "web_not_in_body", 'send("alice", "hello")')
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert _guarantee(ok)["conclusion"] == "proved"
    bad = _prove(tmp_path, "web_not_in_body", """
        text = "x"
        for c in ["a", "b"]:
            if c in page:
                text = text + c
        send("alice", text)
    """)
    assert bad.returncode == 1
    g = _guarantee(bad)
    assert g["conclusion"] == "unknown", g
    assert "get_page(…) at line 9 → page (line 9) → the condition at line 13 → text (line 14)" in json.dumps(
        g, ensure_ascii=False), g
    direct = _prove(tmp_path, "recipients_literal", "send(page, 'hi')")
    g = _guarantee(direct)
    assert g["conclusion"] == "violated", g
    # A helper without a description is named by the plain sentence in the counterexample.
    assert "breaks \"Nothing read by" not in str(g["result"])
    assert "recipients come only from the program" in str(g["result"]), g
    untold = _prove(tmp_path, "web_not_in_body", "send('alice', page)")
    assert "breaks \"Nothing read by get_page reaches send's body.\"" in str(_guarantee(untold)["result"])


def test_a_flow_into_an_unreachable_call_is_proved(tmp_path: Path) -> None:
    done = _prove(tmp_path, "web_not_in_body", """
        n = 2
        if n > 3:
            send("alice", page)
    """)
    assert done.returncode == 0, done.stdout
    assert _guarantee(done)["conclusion"] == "proved"
