"""Straight-line programs, effect calls, all/empty/count/distinct specs and preconditions."""

from __future__ import annotations

from prover_irb import SEND, S, at_most, c, call, only, program, run, stmt, text, unique_recipients, verdicts

from clauz3.language import ir
from clauz3.prover.result import to_json


def perf1(extra: bool = False) -> ir.CheckedProgram:
    body = [stmt(call(SEND, c("bob@example.com"), c("Hi from clauz3"), line=9,
                      source='send_email("bob@example.com", "Hi from clauz3")'), line=9)]
    if extra:
        body.append(stmt(call(SEND, c("bob@example.com"), c("again"), line=10), line=10))
    return program(body, [SEND], [only("bob@example.com"), at_most(1), unique_recipients()])


def test_perf1_proves() -> None:
    result = run(perf1())
    assert verdicts(result) == [("precondition", "proved"), ("guarantee", "proved"), ("guarantee", "proved"),
                                ("guarantee", "proved")]
    out = text(result)
    assert 'main: proved precondition send_email at line 9: "@" in addr' in out
    assert 'main: proved guarantee emails.only(["bob@example.com"])' in out
    assert result.status == "proved"


def test_second_send_violates_at_most_and_names_both_lines() -> None:
    result = run(perf1(extra=True))
    by = {o.subject: o for o in result.obligations}
    assert by["emails.at_most(1)"].conclusion == "violated"
    assert by["emails.at_most(1)"].result == \
        "2 matching calls (lines 9, 10) total 2, but the limit is <= 1"
    assert by["emails.unique_recipients()"].conclusion == "violated"
    assert "calls #1 (line 9) and #2 (line 10) both have addr = \"bob@example.com\"" in \
        by["emails.unique_recipients()"].result
    assert by['emails.only(["bob@example.com"])'].conclusion == "proved"
    out = text(result)
    assert "  why: 2 matching calls (lines 9, 10) total 2, but the limit is <= 1" in out
    assert '  effects: #1 line 9 send_email(addr="bob@example.com", msg="Hi from clauz3"); #2 line 10' in out
    assert to_json(result)["status"] == "not_proved"


def test_precondition_violation_quotes_message() -> None:
    prog = program([stmt(call(SEND, c("bob"), c("x"), line=3), line=3)], [SEND])
    result = run(prog)
    [ob] = result.obligations
    assert ob.conclusion == "violated"
    assert ob.result == 'send_email at line 3 gets addr="bob" which breaks "@" in addr (addr must contain "@")'
    assert "main: violated precondition send_email at line 3" in text(result)


def test_dead_branch_contributes_nothing() -> None:
    body = [ir.If(c(False), (stmt(call(SEND, c("eve@x.y"), c(""), line=2), line=2),), (), 1, 1, "False")]
    result = run(program(body, [SEND], [only("bob@x.y")]))
    assert verdicts(result)[-1] == ("guarantee", "proved")
    assert result.status == "proved"


def test_only_violated_names_call() -> None:
    body = [stmt(call(SEND, c("eve@example.com"), c("hi"), line=9), line=9)]
    result = run(program(body, [SEND], [only("bob@example.com")]))
    g = result.obligations[-1]
    assert g.conclusion == "violated"
    assert g.result == ('call #1 send_email(addr="eve@example.com", msg="hi") at line 9 breaks '
                        '"emails go only to ["bob@example.com"]"')


def test_nothing_to_prove() -> None:
    result = run(program([ir.Pass(1, 1)]))
    assert text(result) == "main: proved nothing to prove\n"


def test_param_input_shows_in_counterexample() -> None:
    params = (ir.Param("to", S, default=ir.Const("bob@x.y", S, 1, 1)),)
    body = [stmt(call(SEND, ir.Name("to", S, 2, 1), c("hi"), line=2), line=2)]
    result = run(program(body, [SEND], [only("bob@x.y")], params=params))
    g = result.obligations[-1]
    assert g.conclusion == "violated"
    assert "inputs: to=" in text(result)
