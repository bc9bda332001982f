"""Symbolic loops over trusted rows, PRED-3 provenance, fluents and events."""

from __future__ import annotations

from prover_irb import (
    SEND,
    B,
    I,
    S,
    assign,
    c,
    call,
    cmp,
    col,
    cond,
    e,
    effect,
    for_,
    guarantee,
    if_,
    n,
    pred,
    program,
    rel,
    run,
    stmt,
    text,
    unique_recipients,
    verdicts,
)

from clauz3.language import ir

USER = "tools.db.trusted.schemas.UserRow"
USER_ROW = ir.RowSchema(USER, "UserRow", (("name", S), ("email", S), ("consented", B), ("role", S)))
ROWS_T = ir.TList(ir.TRow(USER))
LEN = ir.BuiltinCall("len", (n("result", ROWS_T),), (), I, 1, 1)
DB_QUERY = effect("db_query", [("table", S)], returns=ROWS_T, domain="db",
                  ensures=[cond(cmp(LEN, "<=", c(100)), "len(result) <= 100")])


def count_at_most(k: int) -> ir.Guarantee:
    return guarantee(ir.AggregateSpec(rel(SEND), None, "<=", k), f"db.count_at_most({k})")


def addresses_from() -> ir.Guarantee:
    spec = ir.AllSpec(rel(SEND), pred(cmp(e("addr"), "==", col(USER, "email")), "lambda e: e.addr == schema.email"))
    return guarantee(spec, 'db.addresses_from(UserRow, "email")')


def db_loop(addr: ir.Expr, *, filtered: bool = False) -> list[ir.Stmt]:
    send = stmt(call(SEND, addr, c("hi@"), line=3), line=3)
    body = [if_(ir.FieldGet(n("row", ir.TRow(USER)), "consented", B, 3, 1), [send], line=3)] if filtered else [send]
    return [for_("row", call(DB_QUERY, c("users"), line=2, source='db_query("users")'), body, mode="symbolic",
                 t=ir.TRow(USER), line=2)]


def row_email() -> ir.FieldGet:
    return ir.FieldGet(n("row", ir.TRow(USER)), "email", S, 3, 1)


def prog(body: list[ir.Stmt], gs: list[ir.Guarantee]) -> ir.CheckedProgram:
    return program(body, [SEND, DB_QUERY], gs, rows={USER: USER_ROW})


def test_symbolic_loop_count_bound_from_ensures() -> None:
    result = run(prog(db_loop(row_email()), [count_at_most(100), count_at_most(99), addresses_from()]))
    kinds = [(o.subject, o.conclusion) for o in result.obligations if o.kind == "guarantee"]
    assert kinds == [("db.count_at_most(100)", "proved"), ("db.count_at_most(99)", "violated"),
                     ('db.addresses_from(UserRow, "email")', "proved")]
    assert "100 matching calls" in result.obligations[-2].result
    # The precondition "@" in row.email is not known for arbitrary rows.
    assert result.obligations[0].kind == "precondition" and result.obligations[0].conclusion == "violated"


def test_literal_address_fails_provenance() -> None:
    result = run(prog(db_loop(c("bob@x.y")), [addresses_from()]))
    assert verdicts(result)[-1] == ("guarantee", "violated")


def test_filtered_loop_count_is_approximate_but_sound() -> None:
    result = run(prog(db_loop(row_email(), filtered=True), [count_at_most(100), count_at_most(5)]))
    g100, g5 = result.obligations[-2:]
    assert g100.conclusion == "proved"
    # Violated through a run whose rows are all alike (every row passes the filter).
    assert g5.conclusion == "violated"
    assert "matching calls (line 3) total" in g5.result


def test_distinct_over_loop_is_violated() -> None:
    result = run(prog(db_loop(row_email()), [unique_recipients()]))
    g = result.obligations[-1]
    assert g.conclusion == "violated"
    assert "both have addr =" in g.result


def test_index_without_length_check_is_index_error() -> None:
    rows = n("rows", ROWS_T)
    body = [assign("rows", call(DB_QUERY, c("users"), line=2), ROWS_T, line=2),
            assign("first", ir.Subscript(rows, c(0), ir.TRow(USER), 3, 1, "rows[0]"), ir.TRow(USER), line=3)]
    result = run(prog(body, []))
    assert verdicts(result) == [("exception", "violated")]
    assert "IndexError at line 3: rows[0]" in text(result)
    guarded = [body[0], if_(cmp(ir.BuiltinCall("len", (rows,), (), I, 3, 1), ">", c(0)), [body[1]], line=3)]
    assert verdicts(run(prog(guarded, []))) == [("exception", "proved")]


APPROVAL = "tools.trading.trusted.schemas.ApprovalRow"
APPROVAL_ROW = ir.RowSchema(APPROVAL, "ApprovalRow", (("stock", S), ("shares", I), ("approver", S),
                                                      ("approved", B)))
AROWS = ir.TList(ir.TRow(APPROVAL))
LIST_APPROVALS = effect("list_approvals", [("desk", S)], returns=AROWS, domain="trading",
                        ensures=[cond(cmp(ir.BuiltinCall("len", (n("result", AROWS),), (), I, 1, 1), "<=", c(50)),
                                      "len(result) <= 50")])
SELL = effect("sell_shares", [("stock", S), ("shares", I)], domain="trading")


def trading(mixed: bool) -> tuple[ir.CheckedProgram, ...]:
    rows = n("rows", AROWS)
    row = n("row", ir.TRow(APPROVAL))
    shares_src = ir.FieldGet(ir.Subscript(rows, c(0), ir.TRow(APPROVAL), 5, 1, "rows[0]"), "shares", I, 5, 1) \
        if mixed else ir.FieldGet(row, "shares", I, 5, 1)
    sell = stmt(call(SELL, ir.FieldGet(row, "stock", S, 5, 1), shares_src, line=5), line=5)
    body = [assign("rows", call(LIST_APPROVALS, c("eu"), line=2), AROWS, line=2),
            if_(cmp(ir.BuiltinCall("len", (rows,), (), I, 3, 1), ">", c(0)),
                [for_("row", rows, [sell], mode="symbolic", t=ir.TRow(APPROVAL), line=4)], line=3)]
    stock_from = guarantee(ir.AllSpec(rel(SELL), pred(cmp(e("stock"), "==", col(APPROVAL, "stock")))),
                           "trading.stock_from(ApprovalRow, \"stock\")")
    shares_from = guarantee(ir.AllSpec(rel(SELL), pred(cmp(e("shares", I), "==", col(APPROVAL, "shares")))),
                            "trading.shares_from(ApprovalRow, \"shares\")")
    tup = ir.Compare(ir.TupleExpr((e("stock"), e("shares", I)), ir.TTuple((S, I)), 1, 1), ("==",),
                     (ir.Const((col(APPROVAL, "stock"), col(APPROVAL, "shares")), ir.OBJECT, 1, 1, "tuple"),),
                     B, 1, 1)
    match = guarantee(ir.AllSpec(rel(SELL), pred(tup)), "trading.sales_match_rows(ApprovalRow)")
    return (program(body, [SELL, LIST_APPROVALS], [stock_from, shares_from, match],
                    rows={APPROVAL: APPROVAL_ROW}),)


def test_row_mixing_proves_single_fields_but_fails_tuple_provenance() -> None:
    (mixed,) = trading(True)
    assert [(o.kind, o.conclusion) for o in run(mixed).obligations] == [
        ("exception", "proved"), ("guarantee", "proved"), ("guarantee", "proved"), ("guarantee", "violated")]
    (same,) = trading(False)
    assert [o.conclusion for o in run(same).obligations if o.kind == "guarantee"] == ["proved"] * 3


DOOR = ir.Fluent("door_locked", S, B, True)
UNLOCK = effect("unlock_door", [("door", S)], domain="home",
                fluent_updates=(ir.FluentUpdate("door_locked", ("param", "door"), ("const", False)),))
LOCK = effect("lock_door", [("door", S)], domain="home",
              fluent_updates=(ir.FluentUpdate("door_locked", ("param", "door"), ("const", True)),))


def doors(relock: bool, spec: ir.Spec) -> ir.CheckedProgram:
    body = [stmt(call(UNLOCK, c("front"), line=12), line=12)]
    if relock:
        body.append(stmt(call(LOCK, c("front"), line=13), line=13))
    g = guarantee(spec, "home.all_doors_locked_at_end()", cls="completion",
                  description="every door is locked when the program ends")
    return program(body, [UNLOCK, LOCK], [g], fluents={"door_locked": DOOR})


def test_fluent_final_all() -> None:
    item_value = ir.FieldGet(ir.RecordVar("item", 1, 1), "value", B, 1, 1)
    spec = ir.FluentFinalSpec("door_locked", "all", pred=ir.Pred("item", cmp(item_value, "==", c(True)),
                                                                  "lambda item: item.value == True", "c.py", 1))
    bad = run(doors(False, spec))
    assert bad.obligations[-1].conclusion == "violated"
    assert bad.obligations[-1].result == 'after the run door_locked["front"] is False (last set by unlock_door at line 12)'
    assert run(doors(True, spec)).obligations[-1].conclusion == "proved"


def test_fluent_final_key() -> None:
    spec = ir.FluentFinalSpec("door_locked", "==", key="front", value=True)
    assert run(doors(False, spec)).obligations[-1].conclusion == "violated"
    assert run(doors(True, spec)).obligations[-1].conclusion == "proved"


def test_events_unknown_content_fails_content_contract() -> None:
    write_ev = ir.EventClass("tools.fs.trusted.events.Write", "Write", (("dest", S),), ())
    write_text = ir.EventClass("tools.fs.trusted.events.WriteText", "WriteText", (("dest", S), ("text", S)),
                               ("tools.fs.trusted.events.Write",))
    touch = effect("touch", [("dest", S)], performs=(ir.PerformedEvent(write_ev.name, ("dest",)),), domain="fs")
    put = effect("put", [("dest", S), ("text", S)], performs=(ir.PerformedEvent(write_text.name, ("dest", "text")),),
                 domain="fs")
    no_secret = ir.AllSpec(ir.Relation((), write_ev.name, (), ("dest", "text")),
                           pred(ir.UnaryOp("not", ir.Compare(c("secret"), ("in",), (e("text"),), B, 1, 1), B, 1, 1)))
    g = guarantee(no_secret, "fs.no_secret()")
    events = {write_ev.name: write_ev, write_text.name: write_text}
    ok = program([stmt(call(put, c("a.txt"), c("hello")))], [touch, put], [g], events=events)
    assert run(ok).obligations[-1].conclusion == "proved"
    bad = program([stmt(call(touch, c("a.txt")))], [touch, put], [g], events=events)
    assert run(bad).obligations[-1].conclusion == "violated"


def test_shares_value() -> None:
    key = pred(e("msg"), "lambda e: e.msg")
    left = rel(SEND, filters=(pred(cmp(e("addr"), "==", c("a@x"))),))
    right = rel(SEND, filters=(pred(cmp(e("addr"), "==", c("b@x"))),))
    g = guarantee(ir.SharesValueSpec(left, right, key), 'email.same_content("a@x", "b@x")', cls="completion")
    same = program([stmt(call(SEND, c("a@x"), c("m"))), stmt(call(SEND, c("b@x"), c("m")))], [SEND], [g])
    assert run(same).obligations[-1].conclusion == "proved"
    diff = program([stmt(call(SEND, c("a@x"), c("m"))), stmt(call(SEND, c("b@x"), c("n")))], [SEND], [g])
    bad = run(diff).obligations[-1]
    assert bad.conclusion == "violated" and bad.result.startswith("no call in the first group shares msg")
