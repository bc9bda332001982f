"""MON-1…MON-3: the run-time monitor over concrete traces, provenance tags, events and fluents."""

from __future__ import annotations

import io
import json
import stat
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _irkit import (
    APPROVAL_ROW,
    USER_ROW,
    ApprovalRow,
    UserRow,
    build,
    cmp,
    column,
    const,
    effect,
    guarantee,
    pred,
    rec,
    relation,
)

from clauz3.interp import execute
from clauz3.language import ir

SENT: list[tuple[str, str]] = []


@pytest.fixture(autouse=True)
def _isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    SENT.clear()
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "home"))


def send_email(addr: str, msg: str) -> None:
    SENT.append((addr, msg))


def db_query(table: str) -> list[UserRow]:
    return [UserRow(name="ann", email="ann@x.y", consented=True), UserRow(name="bob", email="bob@x.y", consented=False)]


def approvals(desk: str) -> list[ApprovalRow]:
    return [ApprovalRow(stock="ACME", shares=10), ApprovalRow(stock="INIT", shares=5)]


SOLD: list[tuple[str, int]] = []


def sell(stock: str, shares: int) -> None:
    SOLD.append((stock, shares))


def unlock(door: str) -> None:
    pass


def lock(door: str) -> None:
    pass


def write(dest: str, text: str) -> None:
    pass


def touch(dest: str) -> None:
    pass


SEND = effect("t.send_email", [("addr", ir.STR), ("msg", ir.STR)])
DB = effect("t.db_query", [("table", ir.STR)], ir.TList(ir.TRow(USER_ROW.name)))
APPROVALS = effect("t.approvals", [("desk", ir.STR)], ir.TList(ir.TRow(APPROVAL_ROW.name)))
SELL = effect("t.sell", [("stock", ir.STR), ("shares", ir.INT)])
DOOR = ir.Fluent("door_locked", ir.STR, ir.BOOL, True)
UNLOCK = effect("t.unlock", [("door", ir.STR)],
                fluent_updates=(ir.FluentUpdate("door_locked", ("param", "door"), ("const", False)),))
LOCK = effect("t.lock", [("door", ir.STR)],
              fluent_updates=(ir.FluentUpdate("door_locked", ("param", "door"), ("const", True)),))
WRITE_EV = ir.EventClass("ev.Write", "Write", (("dest", ir.STR), ("text", ir.STR)), ("ev.FileEvent",))
TOUCH_EV = ir.EventClass("ev.Touch", "Touch", (("dest", ir.STR),), ("ev.FileEvent",))
FILE_EV = ir.EventClass("ev.FileEvent", "FileEvent", (("dest", ir.STR),), ())
WRITE = effect("t.write", [("dest", ir.STR), ("text", ir.STR)], performs=(ir.PerformedEvent("ev.Write", ("dest", "text")),))
TOUCH = effect("t.touch", [("dest", ir.STR)], performs=(ir.PerformedEvent("ev.Touch", ("dest",)),))
EFFECTS = [SEND, DB, APPROVALS, SELL, UNLOCK, LOCK, WRITE, TOUCH]
LAYER = {"t.send_email": send_email, "t.db_query": db_query, "t.approvals": approvals, "t.sell": sell,
         "t.unlock": unlock, "t.lock": lock, "t.write": write, "t.touch": touch}

AT_MOST_1 = guarantee(ir.AggregateSpec(relation("t.send_email"), None, "<=", 1), "email.at_most(count=1)")


def run(source: str, *guarantees: ir.Guarantee) -> Any:
    program = build(textwrap.dedent(source), effects=EFFECTS, guarantees=guarantees, rows=(USER_ROW, APPROVAL_ROW),
                    events=(WRITE_EV, TOUCH_EV, FILE_EV), fluents=(DOOR,))
    return execute(program, LAYER, stdout=io.StringIO())


TWO_SENDS = """
def main():
    send_email("bob@x.y", "one")
    send_email("ann@x.y", "two")
    print("after")
"""


def test_count_monitor_stops_before_the_second_call() -> None:
    result = run(TWO_SENDS, AT_MOST_1)
    assert result.outcome == "soundness_violation"
    assert SENT == [("bob@x.y", "one")]
    assert len(result.trace) == 1
    assert result.error == (
        'clauz3 stopped this run: send_email(addr="ann@x.y", msg="two") at line 4 would break the proved '
        "guarantee email.at_most(count=1). This is a clauz3 bug, not a problem in your program; nothing after "
        "this point ran."
    )
    path = Path(result.report_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    doc = json.loads(path.read_text())
    assert doc["guarantee"]["bound_call"] == "email.at_most(count=1)"
    assert [r["arguments"]["addr"] for r in doc["trace"]] == ["bob@x.y"]


def test_the_soundness_report_names_the_ir_it_ran() -> None:
    program = build(textwrap.dedent(TWO_SENDS), effects=EFFECTS, guarantees=(AT_MOST_1,), rows=(USER_ROW,),
                    events=(WRITE_EV, TOUCH_EV, FILE_EV), fluents=(DOOR,))
    for proved in (None, ir.ir_sha256(program)):  # a differential run, a worker's run
        result = execute(program, LAYER, stdout=io.StringIO(), ir_hash=proved)
        assert result.outcome == "soundness_violation" and result.report_path is not None
        assert json.loads(Path(result.report_path).read_text())["ir_sha256"] == ir.ir_sha256(program)


def test_monitor_passes_a_good_run() -> None:
    result = run('def main():\n    send_email("bob@x.y", "one")\n', AT_MOST_1)
    assert result.outcome == "completed"
    assert result.report_path is None


def test_all_empty_distinct_and_sum() -> None:
    only_bob = guarantee(ir.AllSpec(relation("t.send_email"), pred(cmp(rec("e", "addr"), "==", const("bob@x.y")))),
                         "email.only(...)")
    result = run(TWO_SENDS, only_bob)
    assert result.outcome == "soundness_violation" and len(result.trace) == 1
    none = guarantee(ir.EmptySpec(relation("t.send_email")), "email.none()")
    assert run(TWO_SENDS, none).trace == []
    distinct = guarantee(ir.DistinctSpec(relation("t.send_email"), pred(rec("e", "msg"))), "email.unique()")
    assert run(TWO_SENDS, distinct).outcome == "completed"
    same_msg = 'def main():\n    send_email("a@x", "m")\n    send_email("b@x", "m")\n'
    assert run(same_msg, distinct).outcome == "soundness_violation"
    filtered = guarantee(ir.AggregateSpec(relation("t.send_email", filters=(
        pred(cmp(rec("e", "addr"), "==", const("ann@x.y"))),)), None, "<=", 0), "email.recipient_at_most(...)")
    result = run(TWO_SENDS, filtered)
    assert result.outcome == "soundness_violation" and len(result.trace) == 1
    total = guarantee(ir.AggregateSpec(relation("t.sell"), pred(rec("e", "shares")), "<=", 10), "t.max(10)")
    result = run('def main():\n    sell("A", 6)\n    sell("B", 4)\n    sell("C", 1)\n', total)
    assert result.outcome == "soundness_violation" and SOLD[-2:] == [("A", 6), ("B", 4)]


def test_completion_spec_is_checked_after_the_run() -> None:
    at_least_2 = guarantee(ir.AggregateSpec(relation("t.send_email"), None, ">=", 2), "email.at_least(2)", "completion")
    result = run('def main():\n    send_email("bob@x.y", "one")\n    return 4\n', at_least_2)
    assert result.outcome == "soundness_violation"
    assert result.error is not None and result.error.startswith(
        "clauz3 stopped this run: the finished run breaks the proved guarantee email.at_least(2).")
    assert len(result.trace) == 1 and result.report_path is not None
    assert run(TWO_SENDS, at_least_2).outcome == "completed"


def test_shares_value() -> None:
    spec = ir.SharesValueSpec(relation("t.send_email", filters=(pred(cmp(rec("e", "addr"), "==", const("a@x"))),)),
                              relation("t.send_email", filters=(pred(cmp(rec("e", "addr"), "==", const("b@x"))),)),
                              pred(rec("e", "msg")))
    g = guarantee(spec, "email.same_content(...)", "completion")
    assert run('def main():\n    send_email("a@x", "m")\n    send_email("b@x", "m")\n', g).outcome == "completed"
    assert run('def main():\n    send_email("a@x", "m")\n    send_email("b@x", "n")\n', g).outcome == (
        "soundness_violation")


def test_fluent_final() -> None:
    all_locked = guarantee(ir.FluentFinalSpec("door_locked", "all", pred=pred(cmp(rec("d", "value"), "==", const(True)),
                                                                                "d")), "home.all_locked()", "completion")
    front = guarantee(ir.FluentFinalSpec("door_locked", "==", key="front", value=True), "home.front()", "completion")
    unlocked = 'def main():\n    unlock("front")\n'
    relocked = 'def main():\n    unlock("front")\n    lock("front")\n'
    assert run(unlocked, all_locked).outcome == "soundness_violation"
    assert run(relocked, all_locked).outcome == "completed"
    assert run(unlocked, front).outcome == "soundness_violation"
    assert run('def main():\n    unlock("back")\n', front).outcome == "completed"


def test_events_and_subclasses() -> None:
    no_file_events = guarantee(ir.EmptySpec(relation(event="ev.FileEvent")), "fs.none()")
    result = run('def main():\n    touch("a")\n', no_file_events)
    assert result.outcome == "soundness_violation" and result.trace == []
    short = guarantee(ir.AllSpec(relation(event="ev.FileEvent"), pred(cmp(ir.BuiltinCall(
        "len", (rec("e", "text"),), (), ir.INT, 1, 0), "<=", const(3)))), "fs.content_at_most(3)")
    assert run('def main():\n    write("a", "abc")\n', short).outcome == "completed"
    assert run('def main():\n    write("a", "abcd")\n', short).outcome == "soundness_violation"
    # Touch has no `text`: the content contract cannot be confirmed, so the monitor stops it.
    assert run('def main():\n    touch("a")\n', short).outcome == "soundness_violation"
    only_write = guarantee(ir.AggregateSpec(relation(event="ev.Write"), None, "<=", 1), "fs.writes_at_most(1)")
    assert run('def main():\n    write("a", "x")\n    touch("b")\n    touch("c")\n', only_write).outcome == "completed"


FROM_DB = guarantee(ir.AllSpec(relation("t.send_email"), pred(cmp(rec("e", "addr"), "==", column(USER_ROW.name, "email")))),
                    "db.addresses_from(UserRow, \"email\")")


@pytest.mark.parametrize(("body", "ok"), [
    ("for row in db_query('users'):\n        send_email(row.email, 'hi')", True),
    ("rows = db_query('users')\n    send_email(rows[1].email, 'hi')", True),
    ("rows = db_query('users')\n    keep = [r.email for r in rows]\n    send_email(keep[0], 'hi')", True),
    ("rows = db_query('users')\n    x = rows[0].email if rows else 'z@z'\n    send_email(x, 'hi')", True),
    ("rows = db_query('users')\n    d = {'k': rows[0].email}\n    send_email(d.get('k'), 'hi')", True),
    ("send_email('ann@x.y', 'hi')", False),
    ("rows = db_query('users')\n    send_email(rows[0].email + '', 'hi')", False),
    ("rows = db_query('users')\n    send_email(rows[0].email.lower(), 'hi')", False),
    ("rows = db_query('users')\n    send_email(f'{rows[0].email}', 'hi')", False),
    ("rows = db_query('users')\n    send_email(str(rows[0].email), 'hi')", False),
    ("rows = db_query('users')\n    send_email(rows[0].name, 'hi')", False),
])
def test_provenance(body: str, ok: bool) -> None:
    result = run(f"def main():\n    {body}\n", FROM_DB)
    assert result.outcome == ("completed" if ok else "soundness_violation"), result.error
    # the tag is invisible: the trusted function received a plain str
    assert all(type(a) is str for a, _ in SENT)


def test_provenance_tuple_form_needs_one_row() -> None:
    spec = ir.AllSpec(relation("t.sell"), pred(cmp(
        ir.TupleExpr((rec("e", "stock"), rec("e", "shares")), ir.OBJECT, 1, 0), "==",
        ir.TupleExpr((column(APPROVAL_ROW.name, "stock"), column(APPROVAL_ROW.name, "shares")), ir.OBJECT, 1, 0))))
    g = guarantee(spec, "trading.sales_match_rows(ApprovalRow)")
    same = "for row in approvals('d'):\n        sell(row.stock, row.shares)"
    mixed = "rows = approvals('d')\n    for row in rows:\n        sell(row.stock, rows[0].shares)"
    assert run(f"def main():\n    {same}\n", g).outcome == "completed"
    SOLD.clear()
    result = run(f"def main():\n    {mixed}\n", g)
    assert result.outcome == "soundness_violation"
    assert SOLD == [("ACME", 10)]  # the first row matches itself; the second pairing is stopped


def test_row_results_print_like_rows_and_stay_immutable() -> None:
    out = io.StringIO()
    program = build("def main():\n    rows = db_query('u')\n    print(rows[0].name, rows[0].consented, rows[0])\n"
                    "    return rows[1].consented\n", effects=EFFECTS, rows=(USER_ROW,))
    result = execute(program, LAYER, stdout=out)
    assert result.outcome == "completed", result.error
    assert out.getvalue() == "ann True UserRow(name='ann', email='ann@x.y', consented=True)\n"
    assert result.return_value is False
    assert result.trace[0].result[0].fields["email"] == "ann@x.y"


def test_wrong_row_class_is_trusted_contract_violation() -> None:
    program = build("def main():\n    return db_query('u')\n", effects=EFFECTS, rows=(USER_ROW, APPROVAL_ROW))
    def wrong_rows(table: str) -> list[ApprovalRow]:
        return approvals(table)

    result = execute(program, {**LAYER, "t.db_query": wrong_rows}, stdout=io.StringIO())
    assert result.outcome == "trusted_contract_violation"


def test_row_class_argument_reaches_the_real_function_as_the_class() -> None:
    received: list[Any] = []

    def query(table: str, schema: Any) -> list[Any]:
        received.append(schema)
        return [schema(name="c", email="c@x.y", consented=True)]

    q = effect("t.query", [("table", ir.STR), ("schema", ir.TRowClass("*"))], ir.TList(ir.OBJECT), row_param="schema")
    program = build("def main():\n    rows = query('u', UserRow)\n    send_email(rows[0].email, 'x')\n",
                    effects=[q, SEND], rows=(USER_ROW,), guarantees=(FROM_DB,),
                    effect_types={"query": ir.TList(ir.TRow(USER_ROW.name))})
    result = execute(program, {"t.query": query, "t.send_email": send_email}, stdout=io.StringIO())
    assert result.outcome == "completed", result.error
    assert received == [UserRow]
    assert SENT == [("c@x.y", "x")]
