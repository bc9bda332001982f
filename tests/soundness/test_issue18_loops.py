"""Issue 18, families 1 and 2 and "the checker's facts are over-approximations, never guesses".

Every program below is checked and proved against the small test layer in ``gen_layers/`` and run by
the real interpreter under the real monitor (``layers/famrun.py``, one subprocess: TL-6). The
universal rule: a program whose proof is ``proved`` must run to ``completed``.

``PROVED_BEFORE`` names the programs that were reported ``proved`` before issue 18 and then raised
in the interpreter (UnboundLocalError, TypeError on None) or broke ``locked_at_end`` after an
unlock; each is refused now, with a diagnostic naming the variable. The others are variations that
were already refused or not proved, and safe programs that must keep proving.

Family 1: loop typing runs to a fixpoint over every name bound before the loop (types, path states,
ownership), or refuses naming the variable when it does not settle in a bounded number of rounds.
Family 2: a name is bound after a loop only when the loop surely runs (a lower bound on the
iterable's length; a comprehension filter or an append under a branch gives none) and no ``break``
leaves it early.
None flags: every ``T | None`` an operation unwraps is an obligation that it is not None, so even a
checker that types a name wrongly (planted in ``layers/issue18_plant.py``) cannot make a None reach
an operation as its payload.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = Path(__file__).resolve().parent / "layers"
RUNNER = LAYERS / "famrun.py"
PLANT = LAYERS / "issue18_plant.py"

HEADER = """import math

import clauz3
from tools.gen.trusted import contracts as fam
from tools.gen.trusted.effects import lock, note, pair, pay, read_int, read_list, send, unlock


"""

PAY1 = "@clauz3.guarantee(fam.max_pay(1))\n"
LOCKED = '@clauz3.guarantee(fam.locked_at_end("d"))\n'
ONLY_OK = '@clauz3.guarantee(fam.only_to(["ok"]))\n'


def prog(guarantee: str, body: str) -> str:
    return HEADER + guarantee + "def main() -> None:\n" + "".join(f"    {ln}\n" for ln in body.strip("\n").split("\n"))


def indent(text: str, by: int = 1) -> str:
    return "".join("    " * by + ln + "\n" for ln in text.strip("\n").split("\n"))


# Six names handed down one per iteration; the first may become None (read_int's mock returns 0, so
# in the run it does). `f` is None from the seventh iteration on.
CHAIN = 'a: str | None = "ok"\nb = "ok"\nc = "ok"\nd = "ok"\ne = "ok"\nf = "ok"\n'
SHIFT = 'f = e\ne = d\nd = c\nc = b\nb = a\nif read_int("k") < 5:\n    a = None\n'
LONG = "abcdefghijk"

# ---------------------------------------------------------------------------------------- family 1
LOOP_TYPES = {
    "f1_none_chain_concat": prog(LOCKED, CHAIN + 'unlock("d")\nfor i in range(7):\n    g = f + "!"\n'
                                 + indent(SHIFT) + 'lock("d")'),
    "f1_none_chain_len": prog(LOCKED, CHAIN + 'unlock("d")\nfor i in range(7):\n    g = len(f)\n'
                              + indent(SHIFT) + 'lock("d")'),
    "f1_none_chain_method_into_send": prog(ONLY_OK, CHAIN + "for i in range(7):\n    send(f.strip(), 1)\n"
                                           + indent(SHIFT)),
    "f1_none_chain_used_after_loop": prog(LOCKED, CHAIN + 'unlock("d")\nfor i in range(7):\n' + indent(SHIFT)
                                          + 'g = f + "!"\nlock("d")'),
    "f1_none_chain_tuple_unpacking": prog(LOCKED, 'a: str | None = "ok"\nb = "ok"\nc = "ok"\nd = "ok"\ne = "ok"\n'
                                          'unlock("d")\nfor i in range(6):\n    g = len(e)\n'
                                          '    e, d, c, b = d, c, b, a\n    if read_int("k") < 5:\n'
                                          '        a = None\nlock("d")'),
    "f1_none_chain_augmented": prog(LOCKED, CHAIN + 'unlock("d")\nfor i in range(7):\n    g = "x"\n    g += f\n'
                                    + indent(SHIFT) + 'lock("d")'),
    "f1_none_chain_in_comprehension": prog(LOCKED, CHAIN + 'unlock("d")\nfor i in range(7):\n'
                                           '    g = [f + "!" for x in [1]]\n' + indent(SHIFT) + 'lock("d")'),
    "f1_none_chain_enumerate": prog(LOCKED, CHAIN + 'unlock("d")\nfor k, i in enumerate([1, 2, 3, 4, 5, 6, 7]):\n'
                                    "    g = f.upper()\n" + indent(SHIFT) + 'lock("d")'),
    "f1_none_chain_nested_loops": prog(LOCKED, CHAIN + 'unlock("d")\nfor j in range(2):\n    for i in range(4):\n'
                                       '        g = f + "!"\n' + indent(SHIFT, 2) + 'lock("d")'),
    "f1_none_chain_into_a_trusted_call": prog(LOCKED, CHAIN.replace('"ok"', "1").replace("str | None", "int | None")
                                              + 'unlock("d")\nfor i in range(7):\n    pay(f)\n' + indent(SHIFT)
                                              + 'lock("d")'),
    # A name first bound in the body is unbound when each iteration starts: a read before its binding
    # (here on later iterations only) is refused, whatever type it would have.
    "f1_body_name_read_on_a_later_iteration": prog(LOCKED, 'unlock("d")\nfor i in range(3):\n    if i > 0:\n'
                                                   '        g = y + "!"\n    y = None if i == 1 else "ok"\n'
                                                   'lock("d")'),
    # `while` and `try` are outside the subset (refused), so no loop or handler of theirs can lie.
    "f1_while_loop": prog(LOCKED, 'x: str | None = "ok"\nunlock("d")\nn = 0\nwhile n < 3:\n    g = len(x)\n'
                          '    x = None\n    n += 1\nlock("d")'),
    "f1_try_except": prog(LOCKED, 'unlock("d")\ntry:\n    y = int("x")\nexcept ValueError:\n    pass\nz = y\n'
                          'lock("d")'),
    # int -> str on a later iteration, through a second name.
    "f1_int_to_str_mod": prog(LOCKED, 'a = 1\nb = 1\nunlock("d")\nfor i in range(3):\n    s = b % 2\n    b = a\n'
                              '    a = "x"\nlock("d")'),
    "f1_int_to_str_compare": prog(LOCKED, 'a = 1\nb = 1\nunlock("d")\nfor i in range(3):\n    if b > 0:\n'
                                  '        pass\n    b = a\n    a = "x"\nlock("d")'),
    "f1_float_to_str_int": prog(LOCKED, 'a = 1.5\nb = 1.5\nunlock("d")\nfor i in range(3):\n    s = int(b)\n'
                                '    b = a\n    a = "x"\nlock("d")'),
    # The element type grows every iteration.
    "f1_list_nests_deeper": prog(LOCKED, 'x = [1]\nfor i in range(3):\n    x = [x]\nunlock("d")\nlock("d")'),
    # A chain longer than the rounds the checker tries: refused, naming a variable, never accepted.
    "f1_chain_longer_than_the_rounds": prog(LOCKED, "".join(f"{n} = 1\n" for n in LONG) + 'unlock("d")\n'
                                            "for i in range(14):\n    y = k + 1\n"
                                            + "".join(f"    {LONG[j]} = {LONG[j - 1]}\n"
                                                      for j in range(len(LONG) - 1, 0, -1))
                                            + '    a = "x"\nlock("d")'),
}
PROVED_BEFORE_F1 = {"f1_none_chain_concat", "f1_none_chain_into_a_trusted_call", "f1_none_chain_len", "f1_none_chain_method_into_send",
                    "f1_none_chain_used_after_loop", "f1_none_chain_tuple_unpacking", "f1_none_chain_augmented",
                    "f1_none_chain_in_comprehension", "f1_none_chain_enumerate", "f1_none_chain_nested_loops",
                    "f1_list_nests_deeper", "f1_chain_longer_than_the_rounds"}
LOOP_TYPES_OK = {
    "f1_ok_chain_of_one_type": prog(LOCKED, "".join(f"{n} = 1\n" for n in LONG) + 'unlock("d")\n'
                                    "for i in range(14):\n    y = k + 1\n"
                                    + "".join(f"    {LONG[j]} = {LONG[j - 1]}\n" for j in range(len(LONG) - 1, 0, -1))
                                    + '    a = 2\nlock("d")'),
    "f1_ok_accumulate": prog(PAY1, "total = 0\nfor x in [1, 0, 0]:\n    total += x\npay(total)"),
    "f1_ok_narrowed_each_iteration": prog(ONLY_OK, CHAIN + "for i in range(7):\n    if f is not None:\n"
                                          "        send(f.strip(), 1)\n" + indent(SHIFT)),
    "f1_ok_refined_empty_list": prog(PAY1, "xs = []\nfor i in range(3):\n    xs.append(i)\npay(xs[1])"),
}

# ---------------------------------------------------------------------------------------- family 2
ZERO_ITERATIONS = {
    "f2_comprehension_filter": prog(LOCKED, 'xs = [x for x in [1, 2] if x > 5]\nunlock("d")\nfor x in xs:\n'
                                    '    y = x\nz = y\nlock("d")'),
    "f2_append_under_a_branch": prog(LOCKED, 'xs: list[int] = []\nif read_int("k") > 100:\n    xs.append(1)\n'
                                     'unlock("d")\nfor x in xs:\n    y = x\nz = y\nlock("d")'),
    "f2_empty_slice": prog(LOCKED, 'unlock("d")\nfor x in [1][1:]:\n    y = x\nz = y + 1\nlock("d")'),
    "f2_dict_filled_under_a_branch": prog(LOCKED, 'd: dict[str, int] = {}\nif read_int("k") > 100:\n'
                                          '    d["a"] = 1\nunlock("d")\nfor k in d:\n    y = k\nz = y\nlock("d")'),
    "f2_set_filled_under_a_branch": prog(LOCKED, 's: set[int] = set()\nif read_int("k") > 100:\n    s.add(1)\n'
                                         'unlock("d")\nfor v in s:\n    y = v\nz = y\nlock("d")'),
    "f2_nested_comprehension_filter": prog(LOCKED, 'unlock("d")\nfor x in [y for y in [x for x in [1, 2] if x > 3]]:\n'
                                           '    w = x\nz = w\nlock("d")'),
    "f2_nested_loops": prog(LOCKED, 'xs: list[int] = []\nif read_int("k") > 100:\n    xs.append(1)\nunlock("d")\n'
                            'for i in range(2):\n    for x in xs:\n        y = x\nz = y\nlock("d")'),
    "f2_tuple_target": prog(LOCKED, 'ps = [(a, b) for a, b in [(1, 2)] if a > 5]\nunlock("d")\nfor p, q in ps:\n'
                            '    last = q\nz = last\nlock("d")'),
    "f2_enumerate_of_a_filter": prog(LOCKED, 'xs = [x for x in [1, 2] if x > read_int("k") + 5]\nunlock("d")\n'
                                     'for i, x in enumerate(xs):\n    y = i\nz = y\nlock("d")'),
    "f2_items_of_a_dict_filled_under_a_branch": prog(LOCKED, 'd: dict[str, int] = {}\nif read_int("k") > 100:\n'
                                                     '    d["a"] = 1\nunlock("d")\nfor k, v in d.items():\n'
                                                     '    y = v\nz = y + 1\nlock("d")'),
    "f2_list_of_a_filter": prog(LOCKED, 'xs = list([x for x in [1, 2] if x > 5])\nunlock("d")\nfor x in xs:\n'
                                '    y = x\nz = y\nlock("d")'),
    "f2_concatenated_filters": prog(LOCKED, 'xs = [x for x in [1] if x > 5] + [x for x in [2] if x > 5]\n'
                                    'unlock("d")\nfor x in xs:\n    y = x\nz = y\nlock("d")'),
    "f2_augmented_in_the_loop": prog(PAY1, "xs = [x for x in [1, 2] if x > 5]\ntotal = 0\nfor x in xs:\n"
                                     "    total += x\n    y = total\npay(y)"),
    "f2_recipient_bound_in_the_loop": prog(ONLY_OK, 'xs = [x for x in ["ok", "no"] if x == "zz"]\nfor x in xs:\n'
                                           "    who = x\nsend(who, 1)"),
    "f2_break_before_binding": prog(LOCKED, 'unlock("d")\nfor x in [1, 2]:\n    if read_int("k") < 5:\n'
                                    '        break\n    y = x\nz = y\nlock("d")'),
    "f2_continue_before_binding": prog(LOCKED, 'unlock("d")\nfor x in [1, 2]:\n    if read_int("k") < 5:\n'
                                       '        continue\n    y = x\nz = y\nlock("d")'),
    "f2_bound_in_one_branch": prog(LOCKED, 'unlock("d")\nif read_int("k") > 5:\n    y = 1\nz = y\nlock("d")'),
}
PROVED_BEFORE_F2 = {"f2_comprehension_filter", "f2_append_under_a_branch", "f2_dict_filled_under_a_branch",
                    "f2_set_filled_under_a_branch", "f2_nested_comprehension_filter", "f2_nested_loops",
                    "f2_tuple_target", "f2_enumerate_of_a_filter", "f2_items_of_a_dict_filled_under_a_branch",
                    "f2_list_of_a_filter", "f2_concatenated_filters", "f2_augmented_in_the_loop",
                    "f2_recipient_bound_in_the_loop"}
ZERO_ITERATIONS_OK = {
    "f2_ok_literal": prog(LOCKED, 'unlock("d")\nfor x in [1, 2]:\n    y = x\nz = y\nlock("d")'),
    "f2_ok_range": prog(LOCKED, 'unlock("d")\nfor x in range(3):\n    y = x\nz = y\nlock("d")'),
    "f2_ok_set_with_equal_elements": prog(LOCKED, 'unlock("d")\nfor x in {1, 1}:\n    y = x\nz = y\nlock("d")'),
    "f2_ok_appended_name": prog(LOCKED, 'xs = [3, 4]\nxs.append(5)\nunlock("d")\nfor x in xs:\n    y = x\nz = y\n'
                                'lock("d")'),
    "f2_ok_comprehension_without_filter": prog(LOCKED, 'xs = [x * 2 for x in [3, 4]]\nunlock("d")\nfor x in xs:\n'
                                               '    y = x\nz = y\nlock("d")'),
    "f2_ok_bound_before": prog(LOCKED, 'xs = [x for x in [1, 2] if x > 5]\ny = 0\nunlock("d")\nfor x in xs:\n'
                               '    y = x\nz = y\nlock("d")'),
    "f2_ok_dict_items": prog(LOCKED, 'd = {"a": 1, "a": 2}\nunlock("d")\nfor k, v in d.items():\n    y = v\n'
                             'z = y\nlock("d")'),
}

# ------------------------------------------------------------------------------------- None flags
NONE_FLAGS_OK = {
    "n_ok_narrowed": prog(ONLY_OK, 'x = None if read_int("k") < 5 else "ok"\nif x is not None:\n    send(x.lower(), 1)'),
    "n_ok_truthy": prog(ONLY_OK, 'x = None if read_int("k") < 5 else "ok"\nif x:\n    send(x.lower(), 1)'),
    "n_ok_early_return": prog(ONLY_OK, 'x = None if read_int("k") < 5 else "ok"\nif x is None:\n    return\n'
                              "send(x.lower(), 1)"),
    "n_ok_and": prog(ONLY_OK, 'x = None if read_int("k") < 5 else "ok"\nif x is not None and len(x) == 2:\n'
                     "    send(x, 1)"),
    "n_ok_conditional_expression": prog(ONLY_OK, 'x = None if read_int("k") < 5 else "ok"\n'
                                        'y = x.lower() if x is not None else "ok"\nsend(y, 1)'),
    "n_ok_assert": prog(ONLY_OK, 'x = None if read_int("k") > 50 else "ok"\nassert x is not None\nsend(x.lower(), 1)'),
    "n_ok_dict_get": prog(ONLY_OK, 'd = {"a": "ok"}\nv = d.get("a")\nif v is not None:\n    send(v.strip(), 1)'),
}

ALL = {**LOOP_TYPES, **LOOP_TYPES_OK, **ZERO_ITERATIONS, **ZERO_ITERATIONS_OK, **NONE_FLAGS_OK}


def _run(programs: dict[str, str], plant: str | None = None) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = [sys.executable, str(RUNNER)] if plant is None else [sys.executable, str(PLANT), plant]
    proc = subprocess.run(cmd, input=json.dumps(programs), capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return _run(ALL)


def _honest(name: str, r: dict[str, Any]) -> None:
    """The universal rule: proved ⇒ the real run completes (monitor on)."""
    if r["status"] == "proved":
        assert r["outcome"] == "completed", f"{name}: proved, but the run ended {r['outcome']}: {r['error']}"


def _refused_or_unproved(name: str, r: dict[str, Any]) -> None:
    _honest(name, r)
    assert r["status"] != "proved", (name, r)


def _proves(name: str, r: dict[str, Any]) -> None:
    assert r["status"] == "proved" and r["outcome"] == "completed", (name, r)


def test_family1_loop_type_changes_on_later_iteration(results: dict[str, Any]) -> None:
    assert PROVED_BEFORE_F1 <= set(LOOP_TYPES)
    for name in LOOP_TYPES:
        r = results[name]
        _refused_or_unproved(name, r)
        if name in PROVED_BEFORE_F1:
            # Refused before proving, with the variable named (`f`, `x`, `h`…), never a silent unknown.
            assert r["status"] == "refused", (name, r)
            assert any("`" in m for m in r["messages"]), (name, r)
    for name in LOOP_TYPES_OK:
        _proves(name, results[name])


def test_family1_types_that_do_not_settle_are_refused_naming_the_variable(results: dict[str, Any]) -> None:
    r = results["f1_chain_longer_than_the_rounds"]
    assert r["status"] == "refused" and "loop-restriction" in r["codes"], r
    assert any("keeps changing" in m and "`" in m for m in r["messages"]), r
    r = results["f1_list_nests_deeper"]
    assert r["status"] == "refused" and any("`x`" in m for m in r["messages"]), r


def test_family2_name_bound_only_in_zero_iteration_loop(results: dict[str, Any]) -> None:
    assert PROVED_BEFORE_F2 <= set(ZERO_ITERATIONS)
    for name in ZERO_ITERATIONS:
        r = results[name]
        _refused_or_unproved(name, r)
        assert r["status"] == "refused" and r["codes"] == ["unbound-name"], (name, r)
        assert any("not bound on every path" in m for m in r["messages"]), (name, r)
    for name in ZERO_ITERATIONS_OK:
        _proves(name, results[name])


def test_none_flags_safe_narrowing_still_proves(results: dict[str, Any]) -> None:
    for name in NONE_FLAGS_OK:
        _proves(name, results[name])
    # Narrowing by the test guarding the path costs no obligation; an assert does (it is proved).
    extra = [o for o in results["n_ok_narrowed"]["obligations"] if "may be None" in o[2]]
    assert extra == [], results["n_ok_narrowed"]
    extra = [o for o in results["n_ok_assert"]["obligations"] if "may be None" in o[2]]
    assert [o[1] for o in extra] == ["proved"], results["n_ok_assert"]


def test_none_flag_survives_a_checker_that_types_a_name_wrongly() -> None:
    """With the loop fixpoint planted away the checker accepts the family-1 None chains with a stale
    ``str`` type; the prover's None obligations still keep every one from being proved."""
    programs = {k: v for k, v in LOOP_TYPES.items() if k.startswith("f1_none_chain")}
    planted = _run(programs, "head")
    accepted = [k for k, r in planted.items() if r["status"] != "refused"]
    assert len(accepted) >= 6, planted  # the plant really lets them through the checker
    for name in accepted:
        r = planted[name]
        _refused_or_unproved(name, r)
        assert any(o[0] == "exception" and "may be None" in o[2] and o[1] != "proved" for o in r["obligations"]), r


def test_family2_unbound_name_survives_a_checker_that_counts_iterations_wrongly() -> None:
    """With the loop's unrolling bound planted in as its count the checker accepts the family-2 reads
    after loops that may run zero times; the prover's UnboundLocalError obligations still keep every
    one from being proved."""
    programs = {k: ZERO_ITERATIONS[k] for k in sorted(PROVED_BEFORE_F2)}
    programs.update(ZERO_ITERATIONS_OK)
    planted = _run(programs, "zero")
    accepted = [k for k in PROVED_BEFORE_F2 if planted[k]["status"] != "refused"]
    assert len(accepted) >= 10, planted  # the plant really lets them through the checker
    for name in accepted:
        r = planted[name]
        _refused_or_unproved(name, r)
        assert any(o[0] == "exception" and "UnboundLocalError" in o[2] and o[1] != "proved"
                   for o in r["obligations"]), r
    for name in ZERO_ITERATIONS_OK:  # where the loop surely runs, the prover agrees it is bound
        _proves(name, planted[name])
