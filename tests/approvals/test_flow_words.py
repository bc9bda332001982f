"""Issue 20: the card says a flow contract in plain words even when the library gave no description."""

from __future__ import annotations

import ast
from pathlib import Path

from clauz3.approvals.flowwords import flow_words
from clauz3.approvals.layerscan import scan_layer

CONTRACTS = '''
from tools.demo.trusted.effects import get_page, send, get_users

from clauz3.spec import ContractSpec, contract, effect, flows


@contract()
def web_not_in_send() -> ContractSpec:
    return flows.never(from_=get_page, into=[effect(send).body, effect(send).to])


@contract()
def to_only_from_users() -> ContractSpec:
    return flows.only(from_=[get_users], into=effect(send).to)


@contract()
def literal_only() -> ContractSpec:
    return flows.only(from_=[], into=effect(send).body)


@contract(description="the library's own words win")
def worded() -> ContractSpec:
    return flows.never(from_=get_page, into=effect(send).body)


@contract()
def through_a_name() -> ContractSpec:
    sink = effect(send)
    return flows.never(from_=get_page, into=sink.body)
'''


def _fn(name: str) -> ast.FunctionDef:
    tree = ast.parse(CONTRACTS)
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


def test_the_sentence_comes_from_the_tree() -> None:
    assert flow_words(_fn("web_not_in_send")) == "Nothing read by get_page reaches send's body or send's to."
    assert flow_words(_fn("to_only_from_users")) == ("Send's to: only from what get_users returned, or from the "
                                                     "program itself.")
    assert flow_words(_fn("literal_only")) == ("Send's body: only from the program itself, never from anything an "
                                               "effect returned.")
    assert flow_words(_fn("through_a_name")) is None  # not read through names: the card says there is none


def test_the_layer_scan_uses_it_only_without_a_description(tmp_path: Path) -> None:
    trusted = tmp_path / "tools" / "demo" / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "__init__.py").write_text("")
    (trusted / "effects.py").write_text("def get_page(url: str) -> str: ...\n")
    (trusted / "contracts.py").write_text(CONTRACTS)
    scan = scan_layer((str(trusted),), (str(tmp_path),))
    by_name = {c.qualname: c.description_template for c in scan.contracts.values()}
    assert by_name["web_not_in_send"] == "Nothing read by get_page reaches send's body or send's to."
    assert by_name["worded"] == "the library's own words win"
    assert by_name["through_a_name"] is None
