"""Issue 20: programs that try to launder a label past flows.never — each must be caught twice.

The static label analysis (what the prover decides with) must find the label at the send, and the
run-time labels (interp/flowtrack.py) must carry it there on the run, so the monitor refuses the call
before it happens. The clean variants must pass both, so the tests can fail either way.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _irkit import build, effect, guarantee

from clauz3.interp import execute
from clauz3.language import ir
from clauz3.language.flowlabels import FlowAnalysis, forbidden

SENT: list[tuple[str, str]] = []
PAGE = ["www.phish.example buy now"]


@pytest.fixture(autouse=True)
def _isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    SENT.clear()
    PAGE[0] = "www.phish.example buy now"
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "home"))


def send(to: str, body: str) -> None:
    SENT.append((to, body))


def get_page(url: str) -> str:
    return PAGE[0]


def get_contacts() -> list:
    return ["alice", "bob"]


SEND = effect("t.send", [("to", ir.STR), ("body", ir.STR)])
PAGE_FX = effect("t.get_page", [("url", ir.STR)], ir.STR)
CONTACTS = effect("t.get_contacts", [], ir.TList(ir.STR))
LAYER = {"t.send": send, "t.get_page": get_page, "t.get_contacts": get_contacts}
NEVER_BODY = guarantee(ir.FlowSpec("never", ("t.get_page",), (("t.send", "body"), ("t.send", "to"))),
                       "flows.never(from_=get_page, into=send.body/to)")
ONLY_TO = guarantee(ir.FlowSpec("only", ("t.get_contacts",), (("t.send", "to"),)),
                    "flows.only(from_=[get_contacts], into=send.to)")


def program(source: str, g: ir.Guarantee = NEVER_BODY) -> ir.CheckedProgram:
    return build(textwrap.dedent(source), effects=[SEND, PAGE_FX, CONTACTS], guarantees=(g,))


def static_flags(p: ir.CheckedProgram) -> list[str]:
    """Every (site, param, label) the static analysis says may break the program's guarantee."""
    spec = p.guarantees[0].spec
    fa = FlowAnalysis(p).run()
    out = []
    for site, params in sorted(fa.sites.items()):
        for eff, param in spec.sinks:
            if fa.calls[site].effect == eff:
                out += [f"{site}:{param}:{k}" for k in forbidden(spec, params.get(param, {}))]
    return out


def run(p: ir.CheckedProgram) -> Any:
    return execute(p, LAYER, stdout=io.StringIO())


LAUNDERING = {
    "direct": """
    def main():
        page = get_page("u")
        send("alice", "see " + page)
    """,
    "via_len": """
    def main():
        page = get_page("u")
        send("alice", str(len(page)))
    """,
    "via_branch": """
    def main():
        page = get_page("u")
        leak = "no"
        if "phish" in page:
            leak = "yes"
        send("alice", leak)
    """,
    "via_branch_not_taken": """
    def main():
        page = get_page("u")
        leak = "yes"
        if "nothing-like-this" in page:
            leak = "no"
        send("alice", leak)
    """,
    "via_call_under_branch": """
    def main():
        page = get_page("u")
        if page.startswith("www"):
            send("alice", "hello")
    """,
    "via_loop_counter": """
    def main():
        page = get_page("u")
        n = 0
        for c in page:
            n = n + 1
        send("alice", str(n))
    """,
    "via_zero_iterations": """
    def main():
        page = get_page("u")
        flag = "empty"
        for c in page:
            flag = "not empty"
        send("alice", flag)
    """,
    "via_dict_keys": """
    def main():
        page = get_page("u")
        d = {}
        d[page] = 1
        keys = list(d.keys())
        send("alice", keys[0])
    """,
    "via_min": """
    def main():
        page = get_page("u")
        words = page.split(" ")
        send("alice", min(words))
    """,
    "via_list_append": """
    def main():
        page = get_page("u")
        out = []
        out.append(page)
        send("alice", out[0])
    """,
    "via_comprehension": """
    def main():
        page = get_page("u")
        picked = [w for w in ["a", "b"] if w in page]
        send("alice", str(len(picked)))
    """,
    "via_early_return": """
    def main():
        page = get_page("u")
        if "phish" not in page:
            return
        send("alice", "hello")
    """,
    "via_break": """
    def main():
        page = get_page("u")
        last = "none"
        for w in ["www", "zzz"]:
            if w in page:
                break
            last = w
        send("alice", last)
    """,
    "via_exception": """
    def main():
        page = get_page("u")
        table = {"www.phish.example buy now": 1}
        x = table[page]
        send("alice", "went on")
    """,
    "via_helper": """
    def pick(t):
        if "phish" in t:
            return "yes"
        return "no"

    def main():
        page = get_page("u")
        send("alice", pick(page))
    """,
    "via_ifexp": """
    def main():
        page = get_page("u")
        send("alice", "a" if len(page) > 3 else "b")
    """,
    "via_boolop_call": """
    def main():
        page = get_page("u")
        ok = "www" in page and send("alice", "hi")
    """,
    "via_recipient": """
    def main():
        page = get_page("u")
        send(page[:3], "hi")
    """,
}

CLEAN = {
    "literal_after_read": """
    def main():
        page = get_page("u")
        send("alice", "I read the page.")
    """,
    "unrelated_branch": """
    def main():
        page = get_page("u")
        n = 3
        if n > 2:
            send("alice", "three")
    """,
    "overwritten": """
    def main():
        page = get_page("u")
        text = page
        text = "fixed"
        send("alice", text)
    """,
    "loop_over_literals": """
    def main():
        page = get_page("u")
        for who in ["alice", "bob"]:
            send(who, "hello " + who)
    """,
}


@pytest.mark.parametrize("name", sorted(LAUNDERING))
def test_laundering_is_seen_by_the_analysis_and_stopped_by_the_monitor(name: str) -> None:
    p = program(LAUNDERING[name])
    assert static_flags(p), f"{name}: the static analysis missed the flow"
    result = run(p)
    assert result.outcome == "soundness_violation", (name, result.outcome, result.error)
    assert result.violation == "guarantee"
    assert SENT == [], name  # the monitor refused the call before it happened


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_programs_are_proved_and_run(name: str) -> None:
    p = program(CLEAN[name])
    assert static_flags(p) == [], name
    result = run(p)
    assert result.outcome == "completed", (name, result.error)
    assert SENT, name


def test_the_counterexample_names_the_path_of_the_value() -> None:
    p = program(LAUNDERING["via_branch"])
    fa = FlowAnalysis(p).run()
    site = max(fa.sites)
    lab = fa.sites[site]["body"]["t.get_page"]
    text = " → ".join(lab.path)
    assert text.startswith("get_page(…) at line 3 → page (line 3) → the condition at line 5 → leak (line 6)"), text
    assert lab.must is False  # on the run where the branch is not taken the label comes from the join


def test_only_allows_the_listed_source_and_literals() -> None:
    ok = program("""
    def main():
        people = get_contacts()
        for who in people:
            send(who, "hi")
        send("carol", "hi")
    """, ONLY_TO)
    assert static_flags(ok) == []
    assert run(ok).outcome == "completed"
    assert [t for t, _ in SENT] == ["alice", "bob", "carol"]
    SENT.clear()
    bad = program("""
    def main():
        page = get_page("u")
        people = get_contacts()
        send(people[0] + page[:0], "hi")
    """, ONLY_TO)
    assert static_flags(bad) == ["2:to:t.get_page"] or static_flags(bad)
    assert run(bad).outcome == "soundness_violation"
    assert SENT == []
