"""DIF-2/DIF-3 on hand-built programs: stubs honour ensures, the monitor and preconditions find bugs."""

from __future__ import annotations

import textwrap

from _irkit import USER_ROW, UserRow, build, cmp, column, condition, effect, guarantee, pred, rec, relation

from clauz3.difftest.run import run_program
from clauz3.language import ir

BALANCE = effect("bank.balance", [("account", ir.STR)], ir.INT, ensures=(condition("result >= 0"),))
WITHDRAW = effect("bank.withdraw", [("account", ir.STR), ("amount", ir.INT)], requires=(condition("amount >= 0"),))
DB = effect("db.db_query", [("table", ir.STR)], ir.TList(ir.TRow(USER_ROW.name)),
            ensures=(condition("len(result) <= 100"),))
SEND = effect("db.send_email", [("addr", ir.STR), ("msg", ir.STR)])
IMPOSSIBLE = effect("bank.odd", [("x", ir.STR)], ir.INT, ensures=(condition("result > 5 and result < 3"),))
EFFECTS = [BALANCE, WITHDRAW, DB, SEND, IMPOSSIBLE]
MAX_SPEND = guarantee(ir.AggregateSpec(relation("bank.withdraw"), pred(rec("e", "amount")), "<=", 500),
                      "bank.max_spend(limit=500)")
FROM_DB = guarantee(ir.AllSpec(relation("db.send_email"),
                               pred(cmp(rec("e", "addr"), "==", column(USER_ROW.name, "email")))),
                    'db.addresses_from(schema=UserRow, field="email")')


def program(source: str, *guarantees: ir.Guarantee) -> ir.CheckedProgram:
    return build(textwrap.dedent(source), effects=EFFECTS, guarantees=guarantees, rows=(USER_ROW,))


def diff(source: str, *guarantees: ir.Guarantee, seed: int = 0, runs: int = 8):  # type: ignore[no-untyped-def]
    return run_program(program(source, *guarantees), {}, path="case.py", runs=runs, seed=seed, max_rows=3)


BRANCHED = """
def main():
    owed = balance("card")
    if owed > 500:
        withdraw("card", 500)
    else:
        withdraw("card", owed)
"""
UNBRANCHED = """
def main():
    owed = balance("card")
    withdraw("card", owed)
"""


def test_correct_program_has_no_findings() -> None:
    report = diff(BRANCHED, MAX_SPEND, runs=16)
    assert report.runs == 16 and report.findings == [] and report.incomplete == 0


def test_unproved_guarantee_is_found() -> None:
    report = diff(UNBRANCHED, MAX_SPEND, runs=16)
    kinds = {f.kind for f in report.findings}
    assert kinds == {"guarantee_violation"}
    assert "bank.max_spend(limit=500)" in report.findings[0].message


def test_precondition_and_exception_findings() -> None:
    pre = diff('def main():\n    withdraw("c", balance("c") - 1)\n', runs=16)
    assert {f.kind for f in pre.findings} == {"precondition_violation"}
    exc = diff('def main():\n    return 10 // balance("c")\n', runs=16)
    assert {f.kind for f in exc.findings} == {"exception"}
    assert "ZeroDivisionError" in exc.findings[0].message


def test_unsatisfiable_ensures_makes_runs_incomplete() -> None:
    report = diff('def main():\n    return odd("x")\n', runs=2)
    assert report.incomplete == 2 and report.findings == []


def test_rows_keep_provenance_through_stubs() -> None:
    good = "def main():\n    for row in db_query('users'):\n        send_email(row.email, 'hi')\n"
    assert diff(good, FROM_DB).findings == []
    bad = "def main():\n    for row in db_query('users'):\n        send_email(row.email + '', 'hi')\n"
    assert {f.kind for f in diff(bad, FROM_DB, runs=16).findings} == {"guarantee_violation"}


def test_same_seed_same_output() -> None:
    a = [f.line() for f in diff(UNBRANCHED, MAX_SPEND, seed=3).findings]
    b = [f.line() for f in diff(UNBRANCHED, MAX_SPEND, seed=3).findings]
    assert a == b and a


def test_stub_rows_are_real_row_instances() -> None:
    from clauz3.difftest.run import StubFactory
    from clauz3.difftest.sample import Sampler

    prog = program("def main():\n    pass\n")
    import random

    factory = StubFactory(prog, {}, Sampler(random.Random(1), prog, 3))
    rows = factory.stub(DB)("users")
    assert isinstance(rows, list) and all(type(r) is UserRow for r in rows)


def test_summary_fails_when_fewer_programs_ran_than_pass_cases() -> None:
    from clauz3.difftest.check import Summary

    assert Summary(programs=2, pass_cases=2).failed is False
    assert Summary(programs=1, pass_cases=2).failed is True
    assert Summary(programs=2, pass_cases=2, not_proved=[("x_pass.py", "refused")]).failed is True
