"""Programs the checker accepts, and the IR it produces."""

from __future__ import annotations

from typing import Any

from clauz3.language import ir


def test_branch_merge_and_effect_binding(check: Any) -> None:
    prog = check(
        "@clauz3.guarantee(c.max_spend(500))\n"
        "def main() -> None:\n"
        "    owed = balance('card')\n"
        "    if owed > 500:\n"
        "        withdraw('card', 500)\n"
        "    else:\n"
        "        withdraw(amount=owed, account='card')\n"
    )
    main = prog.functions["main"]
    assign, branch = main.body
    assert isinstance(assign, ir.Assign) and isinstance(assign.value, ir.EffectCall)
    assert assign.value.type == ir.INT
    assert isinstance(branch, ir.If)
    call = branch.orelse[0].value
    assert [p for p, _ in call.args] == ["amount", "account"]  # source order: the order calls evaluate them
    assert [c.site for c in (assign.value, branch.body[0].value, call)] == [0, 1, 2]
    g = prog.guarantees[0]
    assert (g.bound_call, g.cls, g.description, g.args) == ("lab.max_spend(limit=500)", "safety",
                                                             "spend at most 500", (("limit", 500),))


def test_keyword_form_and_omitted_argument(check: Any) -> None:
    prog = check(
        "@clauz3.guarantee(c.at_most(count=1))\n"
        "@clauz3.guarantee(c.dry())\n"
        "def main() -> None:\n"
        "    write('a/b', 'x')\n"
        "    write('a/b', 'x', dry_run=True)\n"
    )
    first, second = (s.value for s in prog.functions["main"].body)
    assert first.omitted == ("dry_run",) and second.omitted == ()
    assert prog.guarantees[0].expression == "c.at_most(count=1)"
    assert prog.guarantees[0].bound_call == "lab.at_most(count=1)"
    assert prog.effects["tools.lab.trusted.effects.write"].performs[0].args == ("path", "text")
    assert "tools.lab.trusted.effects.WriteText" in prog.events
    assert prog.events["tools.lab.trusted.effects.WriteText"].bases == ("tools.lab.trusted.effects.Write",)


def test_symbolic_and_unrolled_loops(check: Any) -> None:
    prog = check(
        "def main() -> None:\n"
        "    for row in users('t'):\n"
        "        send_email(row.email, shout('hi'))\n"
        "    rows = fetch(UserRow, 'x')\n"
        "    for r in rows:\n"
        "        send_email(r.email, 'x')\n"
        "    xs = []\n"
        "    for i in range(3):\n"
        "        xs.append(i)\n"
        "    for k, v in {'a': 1}.items():\n"
        "        print(k, v)\n"
        "    for j, s in enumerate(['a', 'b']):\n"
        "        print(j, s)\n"
    )
    body = prog.functions["main"].body
    loops = [s for s in body if isinstance(s, ir.For)]
    assert [lp.mode for lp in loops] == ["symbolic", "symbolic", "unrolled", "unrolled", "unrolled"]
    assert body[1].value.type == ir.TList(ir.TRow("tools.lab.trusted.schemas.UserRow"))
    assert isinstance(loops[2].iter, ir.BuiltinCall) and loops[2].iter.name == "range"
    assert isinstance(loops[3].target, ir.TupleTarget)
    assert "tools.lab.trusted.effects.shout" in prog.functions
    assert prog.functions["tools.lab.trusted.effects.shout"].origin == "trusted"
    assert "tools.lab.trusted.schemas.UserRow" in prog.rows


def test_optional_narrowing_and_early_return(check: Any) -> None:
    prog = check(
        "def pick(d: dict[str, int]) -> int:\n"
        "    v = d.get('a')\n"
        "    if v is None:\n"
        "        return 0\n"
        "    return v + 1\n"
        "def main() -> None:\n"
        "    x = None\n"
        "    if balance('a') > 3:\n"
        "        x = 'bob@x'\n"
        "    if x is not None and x.startswith('b'):\n"
        "        send_email(x, str(pick({'a': 1})))\n"
    )
    assert prog.functions["pick"].returns == ir.INT


def test_predicates_columns_and_path_predicates(check: Any) -> None:
    prog = check(
        "@clauz3.guarantee(c.from_rows())\n"
        "@clauz3.guarantee(c.safe_paths())\n"
        "@clauz3.guarantee(c.locked())\n"
        "@clauz3.guarantee(c.two())\n"
        "@clauz3.guarantee(c.only_write(['a/b']))\n"
        "def main() -> None:\n"
        "    unlock('front')\n"
    )
    rows, paths, locked, two, only = (g.spec for g in prog.guarantees[:5])
    col = rows.pred.body.comparators[0]
    assert col.kind == "column" and col.value == ("tools.lab.trusted.schemas.UserRow", "email")
    assert isinstance(paths.pred.body, ir.HelperCall)
    assert prog.functions[paths.pred.body.function].origin == "path_predicate"
    assert isinstance(locked, ir.FluentFinalSpec) and locked.op == "all"
    assert locked.pred is not None and prog.guarantees[2].cls == "completion"
    assert two.relation.filters[0].source == 'lambda e: e.addr == "b@x"'
    assert two.pred.source == 'lambda e: e.msg == "x"'
    assert only.pred.body.comparators[0].kind == "list"


def test_required_policy_and_coverage(check: Any) -> None:
    prog = check("@clauz3.guarantee(c.at_most(2))\ndef main() -> None:\n    send_email('a@x', 'm')\n")
    assert [g.kind for g in prog.guarantees] == ["guarantee", "required"]
    req = prog.guarantees[1]
    assert req.bound_call == "lab.unique()" and req.expression == "lab.unique()"
    assert req.description == "No address gets two emails."
    assert prog.used_domains == ("lab",)
    assert prog.coverage[0].required == ("tools.lab.trusted.contracts.unique",)
    quiet = check("def main() -> None:\n    withdraw('a', 1)\n", name="quiet.py")
    assert quiet.used_domains == () and quiet.guarantees == ()


def test_aliases_and_warnings(check: Any) -> None:
    prog = check(
        "import clauz3 as cz\n"
        "from clauz3 import guarantee as g\n"
        "from tools.lab.trusted.contracts import at_most as most\n"
        "from tools.lab.trusted.effects import send_email\n"
        "@cz.guarantee(most(1))\n"
        "@g(most(1))\n"
        "def main() -> None:\n"
        "    send_email('a@x', 'm')\n",
        header=False,
    )
    assert len([g for g in prog.guarantees if g.kind == "guarantee"]) == 2
    assert sorted(w.code for w in prog.warnings) == ["duplicate-guarantee"]


def test_entry_row_and_constants(check: Any) -> None:
    prog = check(
        "LIMIT = 3\n"
        "NAMES = ['a@x', 'b@x']\n"
        "class Local(clauz3.Row):\n"
        "    '''doc'''\n"
        "    email: str\n"
        "def main() -> None:\n"
        "    for n in NAMES:\n"
        "        send_email(n, str(LIMIT))\n"
        "    for r in fetch(Local, 't'):\n"
        "        send_email(r.email, 'x')\n"
    )
    assert "__entry__.Local" in prog.rows
    loop = prog.functions["main"].body[0]
    assert isinstance(loop.iter, ir.Const) and loop.iter.kind == "list" and loop.mode == "unrolled"


def test_deterministic_ir(check: Any) -> None:
    src = ("@clauz3.guarantee(c.only(['b@x', 'a@x']))\n"
           "def main() -> None:\n    s = {'z', 'a'}\n    send_email('a@x', 'm')\n")
    a = ir.ir_sha256(check(src, name="a.py"))
    b = ir.ir_sha256(check(src, name="a.py"))
    assert a == b
    prog = check(src, name="a.py")
    consts = prog.functions["main"].body[0].value
    assert isinstance(consts, ir.SetExpr)
