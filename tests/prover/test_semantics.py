"""Branches, sums, exceptions, IEEE floats, strings, vacuity, omitted arguments, timeouts."""

from __future__ import annotations

from prover_irb import (
    B,
    F,
    I,
    N,
    S,
    assign,
    binop,
    c,
    call,
    cmp,
    cond,
    e,
    effect,
    guarantee,
    if_,
    n,
    pred,
    program,
    rel,
    run,
    stmt,
    text,
    verdicts,
)

from clauz3.language import ir

WITHDRAW = effect("withdraw", [("account", S), ("amount", I)], domain="bank",
                  requires=[cond(cmp(n("amount"), ">=", c(0)), "amount >= 0", "amount must not be negative")])
BALANCE = effect("balance", [("account", S)], returns=I, domain="bank",
                 ensures=[cond(cmp(n("result"), ">=", c(0)), "result >= 0")])


def max_spend(limit: int) -> ir.Guarantee:
    return guarantee(ir.AggregateSpec(rel(WITHDRAW), pred(e("amount", I), "lambda e: e.amount"), "<=", limit),
                     f"bank.max_spend({limit})", description=f"at most {limit} is withdrawn in total")


def bank_program(branch: bool) -> ir.CheckedProgram:
    body: list[ir.Stmt] = [assign("owed", call(BALANCE, c("card"), line=6, source='balance("card")'), line=6)]
    if branch:
        body.append(if_(cmp(n("owed"), ">", c(500)),
                        [stmt(call(WITHDRAW, c("card"), c(500), line=8), line=8)],
                        [stmt(call(WITHDRAW, c("card"), n("owed"), line=10), line=10)], line=7,
                        source="owed > 500"))
    else:
        body.append(stmt(call(WITHDRAW, c("card"), n("owed"), line=7), line=7))
    return program(body, [WITHDRAW, BALANCE], [max_spend(500)])


def test_branch_merge_proves_max_spend() -> None:
    result = run(bank_program(True))
    assert [o.conclusion for o in result.obligations] == ["proved"] * 3


def test_without_branch_max_spend_is_violated_with_balance_result() -> None:
    result = run(bank_program(False))
    g = result.obligations[-1]
    assert g.conclusion == "violated"
    ret = g.counterexample["returns"][0]
    assert ret["call"] == 'balance("card")' and ret["line"] == 6 and ret["value"] > 500
    assert 'trusted results: balance("card") at line 6 returned' in text(result)


def test_float_assertion_is_ieee() -> None:
    s = binop("+", c(0.1), c(0.2), F)
    body = [ir.Assert(ir.Compare(s, ("==",), (c(0.3),), B, 2, 1), None, 2, 1, "0.1 + 0.2 == 0.3")]
    result = run(program(body))
    assert verdicts(result) == [("assertion", "violated")]
    assert "main: violated assertion at line 2: 0.1 + 0.2 == 0.3" in text(result)


def test_non_bmp_string_length() -> None:
    body = [ir.Assert(cmp(ir.BuiltinCall("len", (c("😀"),), (), I, 1, 1), "==", c(1)), None, 1, 1, "")]
    assert verdicts(run(program(body))) == [("assertion", "proved")]


def test_string_literal_with_backslash_escape_is_exact() -> None:
    body = [ir.Assert(cmp(ir.BuiltinCall("len", (c("\\u{41}"),), (), I, 1, 1), "==", c(6)), None, 1, 1, "")]
    assert verdicts(run(program(body))) == [("assertion", "proved")]


def _div_program(guarded: bool) -> ir.CheckedProgram:
    div = ir.Assign(ir.NameTarget("x", F), binop("/", c(1), n("n"), F, line=5, source="1 / n"), 5, 1)
    body: list[ir.Stmt] = [if_(cmp(n("n"), "!=", c(0)), [div], line=4)] if guarded else [div]
    return program(body, params=(ir.Param("n", I, default=c(1)),))


def test_division_by_unconstrained_int_is_violated() -> None:
    result = run(_div_program(False))
    assert ("exception", "violated") in verdicts(result)
    assert "ZeroDivisionError at line 5: 1 / n with n = 0" in text(result)


def test_division_guarded_is_proved() -> None:
    result = run(_div_program(True))
    zero = [o for o in result.obligations if o.subject.startswith("ZeroDivisionError")]
    assert zero and zero[0].conclusion == "proved"


def test_contradictory_ensures_make_everything_vacuous() -> None:
    weird = effect("weird", [], returns=I, ensures=[cond(cmp(n("result"), ">", c(5)), "result > 5"),
                                                    cond(cmp(n("result"), "<", c(3)), "result < 3")])
    from prover_irb import SEND, only
    body = [stmt(call(weird)), stmt(call(SEND, c("bob@x.y"), c("hi")))]
    result = run(program(body, [weird, SEND], [only("bob@x.y")]))
    assert {o.conclusion for o in result.obligations} == {"unknown"}
    assert {o.reason for o in result.obligations} == {"vacuous"}
    assert "(vacuous: " in text(result)


def _dry_run(pass_it: bool) -> ir.CheckedProgram:
    f = effect("f", [ir.Param("x", S), ir.Param("dry_run", B, "keyword_only", c(True))])
    spec = ir.AllSpec(rel(f), pred(cmp(e("dry_run", B), "==", c(True)), "lambda e: e.dry_run == True"))
    g = guarantee(spec, "lib.dry_only()")
    if pass_it:
        body = [stmt(call(f, c("a"), kwargs={"dry_run": c(True)}))]
    else:
        body = [stmt(call(f, c("a"), omitted=("dry_run",)))]
    return program(body, [f], [g])


def test_omitted_argument_is_unconstrained() -> None:
    assert verdicts(run(_dry_run(False)))[-1] == ("guarantee", "violated")
    assert verdicts(run(_dry_run(True)))[-1] == ("guarantee", "proved")
    assert "dry_run=<omitted: any value, here False>" in text(run(_dry_run(False)))


def test_index_out_of_range_on_list_literal() -> None:
    xs = ir.Const((c(1), c(2)), ir.TList(I), 1, 1, "list")
    body = [assign("y", ir.Subscript(xs, n("k"), I, 3, 1, "xs[k]"), line=3)]
    result = run(program(body, params=(ir.Param("k", I, default=c(0)),)))
    assert verdicts(result) == [("exception", "violated")]


def test_raise_reachable_is_violated_and_unreachable_proved() -> None:
    body = [if_(cmp(n("k"), ">", c(3)), [ir.Raise("ValueError", (), 2, 1, "raise ValueError")], line=1)]
    result = run(program(body, params=(ir.Param("k", I, default=c(0)),)))
    assert verdicts(result) == [("exception", "violated")]
    body = [if_(cmp(n("k"), ">", c(3)), [if_(cmp(n("k"), "<", c(2)), [ir.Raise("ValueError", (), 2, 1, "")])])]
    result = run(program(body, params=(ir.Param("k", I, default=c(0)),)))
    assert verdicts(result) == [("exception", "proved")]


def test_int_floor_division_semantics() -> None:
    # -7 // 2 == -4 and -7 % 2 == 1 in Python.
    a = ir.Assert(cmp(binop("//", c(-7), c(2), line=1), "==", c(-4)), None, 1, 1, "")
    b = ir.Assert(cmp(binop("%", c(-7), c(2), line=2), "==", c(1)), None, 2, 1, "")
    d = ir.Assert(cmp(binop("%", c(7), c(-2), line=3), "==", c(-1)), None, 3, 1, "")
    assert [v for _, v in verdicts(run(program([a, b, d])))].count("proved") == 6


def test_unrolled_loop_with_break() -> None:
    from prover_irb import SEND, at_most, for_, lst
    body = [for_("a", lst("a@x", "b@x", "c@x"), [
        stmt(call(SEND, n("a", S), c("hi"), line=3), line=3),
        if_(cmp(n("a", S), "==", c("b@x")), [ir.Break(4, 1)], line=4),
    ])]
    result = run(program(body, [SEND], [at_most(2)]))
    assert verdicts(result)[-1] == ("guarantee", "proved")
    result = run(program(body, [SEND], [at_most(1)]))
    assert verdicts(result)[-1] == ("guarantee", "violated")


def test_helper_inlined_with_return() -> None:
    from prover_irb import SEND, only
    helper = ir.Function("pick", (ir.Param("flag", B),), (
        if_(n("flag", B), [ir.Return(c("bob@x.y"), 2, 1)]),
        ir.Return(c("ann@x.y"), 3, 1)), S, True, "entry", "__entry__", "main.py", 1)
    body = [stmt(call(SEND, ir.HelperCall("pick", (n("f", B),), S, 5, 1), c("hi"), line=5), line=5)]
    prog = program(body, [SEND], [only("bob@x.y", "ann@x.y")], params=(ir.Param("f", B, default=c(True)),),
                   functions={"pick": helper})
    assert verdicts(run(prog))[-1] == ("guarantee", "proved")
    prog = program(body, [SEND], [only("bob@x.y")], params=(ir.Param("f", B, default=c(True)),),
                   functions={"pick": helper})
    assert verdicts(run(prog))[-1] == ("guarantee", "violated")


def test_obligation_timeout_gives_unknown_timeout() -> None:
    # A hard nonlinear claim: x*x*x + y*y*y == z*z*z has no positive solutions (Fermat n=3).
    x, y, z = n("x"), n("y"), n("z")
    cube = lambda v: binop("*", binop("*", v, v), v)  # noqa: E731
    claim = ir.BoolOp("or", (cmp(x, "<=", c(0)), cmp(y, "<=", c(0)), cmp(z, "<=", c(0)),
                             cmp(binop("+", cube(x), cube(y)), "!=", cube(z))), B, 1, 1)
    body = [ir.Assert(claim, None, 1, 1, "fermat")]
    params = tuple(ir.Param(p, I, default=c(1)) for p in "xyz")
    result = run(program(body, params=params), obligation_timeout=0.1)
    [ob] = result.obligations
    assert (ob.conclusion, ob.reason) == ("unknown", "timeout")
    assert "(timeout: no answer within 0.1 s)" in text(result)


def test_deadline_passed_gives_deadline() -> None:
    import time
    body = [ir.Assert(cmp(n("x"), ">", c(0)), None, 1, 1, "x > 0")]
    result = run(program(body, params=(ir.Param("x", I, default=c(1)),)), deadline=time.monotonic() - 1)
    assert result.obligations[0].reason == "deadline"


def test_none_and_optional() -> None:
    get = effect("lookup", [("k", S)], returns=ir.TOptional(S))
    body = [assign("v", call(get, c("a")), ir.TOptional(S)),
            if_(ir.Compare(n("v", ir.TOptional(S)), ("is_not",), (c(None),), B, 1, 1),
                [ir.Assert(cmp(ir.BuiltinCall("len", (n("v", S),), (), I, 1, 1), ">=", c(0)), None, 3, 1, "")])]
    assert verdicts(run(program(body, [get]))) == [("assertion", "proved")]
    _ = N


def test_unencodable_program_is_never_proved() -> None:
    body = [ir.ExprStmt(ir.BuiltinCall("no_such_builtin", (), (), I, 4, 1), 4, 1)]
    result = run(program(body))
    assert result.status == "not_proved"
    assert verdicts(result) == [("exception", "unknown")]
    assert result.obligations[0].reason == "unsupported"
