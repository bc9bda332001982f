"""Issue 18, families 3–6: programs reported `proved` that then raise or break their guarantee.

Each program is checked and proved against the generative test layer (``gen_layers/``) and run by the
real interpreter under the real monitor (``layers/famrun.py``, one subprocess per family: TL-6). The
universal rule of ``test_families.py`` holds here too: a program whose proof is ``proved`` must run to
``completed``. Each family also has programs that must still prove, so a fix that refuses everything
fails, and pinned expectations (refused with a code, or not proved).

Family 3: an index (``enumerate``) over a set with repeated elements or a dict whose keys were
overwritten counts only the real entries. Family 4: ordering between values of the wrong kinds (sets,
a tuple against a list, None inside a container) is refused or an obligation, as the interpreter
raises. Family 5: a value of type ``object`` may be unhashable: it is refused as a dict key or set
element. Family 6: constant folding raises exactly the obligations of the general path, and never
crashes the prover.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "layers" / "famrun.py"

HEADER = """import math

import clauz3
from tools.gen.trusted import contracts as fam
from tools.gen.trusted.effects import (
    contacts, lock, note, pair, pay, read_big, read_flag, read_float, read_int, read_list, read_str, send, unlock,
)


"""

PAY1 = "@clauz3.guarantee(fam.max_pay(1))\n"
LOCKED = '@clauz3.guarantee(fam.locked_at_end("d"))\n'


def prog(guarantee: str, body: str) -> str:
    lines = body.strip("\n").split("\n")
    return HEADER + guarantee + "def main() -> None:\n" + "".join(f"    {line}\n" for line in lines)


def locked(body: str) -> str:
    """The door is unlocked first and locked last: any exception in between leaves it open."""
    return prog(LOCKED, 'unlock("d")\n' + body.strip("\n") + '\nlock("d")')


def run(programs: dict[str, str]) -> dict[str, dict[str, Any]]:
    proc = subprocess.run([sys.executable, str(RUNNER)], input=json.dumps(programs), capture_output=True,
                          text=True, cwd=ROOT, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out: dict[str, dict[str, Any]] = json.loads(proc.stdout)
    return out


def assert_no_lie(results: dict[str, dict[str, Any]]) -> None:
    lies = {n: r.get("error") or r.get("outcome") for n, r in results.items()
            if r["status"] == "proved" and r.get("outcome") != "completed"}
    assert not lies, json.dumps(lies, indent=1)
    crashed = {n: r for n, r in results.items() if r["status"] == "error"}
    assert not crashed, json.dumps(crashed, indent=1)


def check_family(hostile: dict[str, str], safe: dict[str, str]) -> dict[str, dict[str, Any]]:
    results = run({**hostile, **safe})
    assert_no_lie(results)
    for name in hostile:
        assert results[name]["status"] != "proved" or results[name]["outcome"] == "completed", name
    unproved = {n: results[n] for n in safe if results[n]["status"] != "proved"}
    assert not unproved, json.dumps(unproved, indent=1)
    for name in safe:
        assert results[name]["outcome"] == "completed", results[name]
    return results


# ------------------------------------------------------------------------------------ family 3
# The proof's index counted entries a set hides (a repeat) or a dict overwrote: 7 is at index 1, not 2.

ENUMERATE = {
    "f3_enum_set_literal_repeat": prog(PAY1, "for i, x in enumerate({5, 5, 7}):\n    if x == 7:\n        pay(3 - i)"),
    "f3_enum_set_added_repeat": prog(PAY1, "s = {5}\ns.add(5)\ns.add(7)\nfor i, x in enumerate(s):\n"
                                     "    if x == 7:\n        pay(3 - i)"),
    "f3_enum_set_of_list": prog(PAY1, "for i, x in enumerate(set([5, 5, 7])):\n    if x == 7:\n        pay(3 - i)"),
    "f3_enum_set_start": prog(PAY1, "for i, x in enumerate({5, 5, 7}, 10):\n    if x == 7:\n        pay(13 - i)"),
    "f3_enum_dict_literal_overwrite": prog(PAY1, 'd = {"a": 1, "a": 2, "b": 3}\nfor i, k in enumerate(d):\n'
                                           '    if k == "b":\n        pay(3 - i)'),
    "f3_enum_dict_setitem_overwrite": prog(PAY1, 'd = {"a": 1, "b": 3}\nd["a"] = 5\nfor i, kv in '
                                           'enumerate(d.items()):\n    if kv[0] == "b":\n        pay(3 - i)'),
    "f3_enum_dict_values": prog(PAY1, 'd = {"a": 0, "a": 0, "b": 7}\nfor i, v in enumerate(d.values()):\n'
                                '    if v == 7:\n        pay(3 - i)'),
    "f3_enum_dict_conditional": prog(PAY1, 'd = {"a": 1}\nif read_int("k") < 3:\n    d["a"] = 2\nd["b"] = 1\n'
                                     'for i, k in enumerate(d):\n    if k == "b":\n        pay(3 - i)'),
    "f3_enum_comprehension": prog(PAY1, "ys = [i for i, x in enumerate({5, 5, 7}) if x == 7]\npay(3 - ys[0])"),
    "f3_enum_into_dict": prog(PAY1, "d = {}\nfor i, x in enumerate({5, 5, 7}):\n    d[x] = i\npay(3 - d[7])"),
    "f3_enum_tuple_repeats": prog(PAY1, "for i, t in enumerate({(1, 2), (1, 2), (3, 4)}):\n    if t[0] == 3:\n"
                                  "        pay(3 - i)"),
    "f3_enum_lock_at_index": prog(LOCKED, 'unlock("d")\nfor i, x in enumerate({"a", "a", "b"}):\n'
                                  '    if x == "b" and i == 2:\n        lock("d")'),
    "f3_enum_nested_enumerate": prog(PAY1, "for j, (i, x) in enumerate(enumerate({5, 5, 7})):\n    if x == 7:\n"
                                     "        pay(3 - j)"),
    "f3_enum_unknown_repeat": prog(PAY1, 'a = 7 if read_int("k") >= 0 else 5\nfor i, x in enumerate({a, 7, 9}):\n'
                                   '    if x == 9:\n        pay(3 - i)'),
}
# Exact, not merely refused: these prove only when the index is the interpreter's.
ENUMERATE_SAFE = {
    "f3_safe_enum_set_index": prog(PAY1, "for i, x in enumerate({5, 5, 7}):\n    if x == 7:\n        pay(i)"),
    "f3_safe_enum_dict_index": prog(PAY1, 'd = {"a": 1, "a": 2, "b": 3}\nfor i, k in enumerate(d):\n'
                                    '    if k == "b":\n        pay(i)'),
    "f3_safe_enum_list": prog(PAY1, "for i, x in enumerate([5, 5, 7]):\n    if x == 7:\n        pay(i - 1)"),
    "f3_safe_enum_unknown_repeat": prog(PAY1, 'a = 7 if read_int("k") >= 0 else 5\nfor i, x in enumerate({a, 7, 9}):\n'
                                        '    if x == 9 and a == 7:\n        pay(i)'),
}


def test_family3_enumerate_counts_only_the_real_entries_of_sets_and_dicts() -> None:
    results = check_family(ENUMERATE, ENUMERATE_SAFE)
    # Every hostile program here breaks its guarantee when run: none may be proved.
    wrongly = [n for n in ENUMERATE if results[n]["status"] == "proved"]
    assert not wrongly, wrongly
    assert all(results[n]["outcome"] != "completed" for n in ENUMERATE), {
        n: results[n]["outcome"] for n in ENUMERATE}


# ------------------------------------------------------------------------------------ family 4
# The interpreter has no ordering on sets (OrderedSet), nor between a tuple and a list, nor with None.

ORDERING = {
    "f4_set_lt_subset": locked("a = {1}\nb = {1, 2}\nif a < b:\n    pay(0)"),
    "f4_set_le_equal": locked("if {1} <= {1}:\n    pay(0)"),
    "f4_set_in_tuple": locked("if ({1},) < ({2},):\n    pay(0)"),
    "f4_set_in_list": locked("if [{1}] < [{2}]:\n    pay(0)"),
    "f4_set_nested_deep": locked("if [[{1}]] >= [[{2}]]:\n    pay(0)"),
    "f4_tuple_vs_list_nested": locked("a = [[1], (1,)]\nb = [[1], [1]]\nif a < b:\n    pay(0)"),
    "f4_tuple_vs_list_elements": locked("if [(1, 2)] < [[1, 2]]:\n    pay(0)"),
    "f4_tuple_vs_list_in_tuple": locked("if ((1,), 2) > ([1], 2):\n    pay(0)"),
    "f4_none_maybe_in_list": locked('x = None\nif read_int("k") > 20:\n    x = 1\nif [x] < [2]:\n    pay(0)'),
    "f4_none_maybe_in_tuple": locked('x = None\nif read_int("k") > 20:\n    x = 1\nif (0, x) >= (0, 2):\n    pay(0)'),
    "f4_dict_in_list": locked('if [{"a": 1}] < [{"a": 2}]:\n    pay(0)'),
    "f4_mixed_object_elements": locked('xs = [1, "a"]\nif [xs[1]] < [2]:\n    pay(0)'),
}
ORDERING_SAFE = {
    "f4_safe_list_order": prog(PAY1, "if [1, 2] < [1, 3]:\n    pay(1)\nelse:\n    pay(5)"),
    "f4_safe_tuple_order": prog(PAY1, 'if (1, "b") > (1, "a"):\n    pay(1)\nelse:\n    pay(5)'),
    "f4_safe_nested_lists": prog(PAY1, "if [[1], [2]] <= [[1], [2]]:\n    pay(1)\nelse:\n    pay(5)"),
}


def test_family4_ordering_on_the_wrong_kinds_is_refused_or_an_obligation() -> None:
    results = check_family(ORDERING, ORDERING_SAFE)
    wrongly = [n for n in ORDERING if results[n]["status"] == "proved"]
    assert not wrongly, wrongly
    # Always a TypeError at run time: refused before proving, with the checker's type-error code.
    for name in ("f4_set_lt_subset", "f4_set_le_equal", "f4_set_in_tuple", "f4_set_in_list",
                 "f4_tuple_vs_list_elements", "f4_tuple_vs_list_nested"):
        assert results[name]["status"] == "refused" and "type-error" in results[name]["codes"], results[name]


# ------------------------------------------------------------------------------------ family 5
# An `object` element may be a list, set or dict: storing it as a key or set element raises TypeError.

UNHASHABLE = {
    "f5_dict_key_object_list": locked('xs = [1, ["x"]]\nd = {xs[1]: 1}'),
    "f5_set_of_objects": locked('xs = [1, ["x"]]\ns = set(xs)'),
    "f5_tuple_key_with_object": locked('xs = [1, ["x"]]\nd = {(1, xs[1]): 3}'),
    "f5_set_display_object": locked('xs = [1, ["x"]]\ns = {xs[1]}'),
    "f5_dict_key_object_set": locked('xs = [1, {"x"}]\nd = {xs[1]: 1}'),
    "f5_dict_key_object_dict": locked('xs = [1, {"a": 1}]\nd = {xs[1]: 2}'),
    "f5_setitem_object_key": locked('xs = [1, ["x"]]\nd = {}\nd[xs[1]] = 3'),
    "f5_add_object": locked('xs = [1, ["x"]]\ns = set()\ns.add(xs[1])'),
    "f5_loop_add_objects": locked('xs = [1, ["x"]]\ns = set()\nfor x in xs:\n    s.add(x)'),
    "f5_tuple_of_object_in_set": locked('xs = [1, ["x"]]\nt = (1, xs[1])\ns = {t}'),
}
UNHASHABLE_SAFE = {
    # Lookups never raise in the interpreter (an unhashable value equals no key): these stay proved.
    "f5_safe_lookup_in_set": prog(PAY1, 'xs = [1, ["x"]]\ns = {1}\nif xs[1] in s:\n    pay(5)\npay(1)'),
    "f5_safe_lookup_in_dict": prog(PAY1, 'xs = [1, ["x"]]\nd = {1: 2}\npay(d.get(xs[1], 1))'),
    "f5_safe_mixed_scalars": prog(PAY1, 's = {1, "a"}\nd = {1: 0, "a": 1}\npay(d["a"])'),
}


def test_family5_object_values_are_not_stored_as_keys_or_set_elements() -> None:
    results = check_family(UNHASHABLE, UNHASHABLE_SAFE)
    wrongly = [n for n in UNHASHABLE if results[n]["status"] == "proved"]
    assert not wrongly, wrongly
    for name in UNHASHABLE:
        assert results[name]["status"] == "refused" and "type-error" in results[name]["codes"], results[name]


# ------------------------------------------------------------------------------------ family 6
# A fold on constants must raise what the general path raises, and never crash the prover.

FOLDING = {
    "f6_int_div_overflow": locked("y = (1 << 1100) / 3"),
    "f6_int_div_overflow_names": locked("a = 1 << 1100\nb = 4\ny = a / b"),
    "f6_int_div_overflow_negative": locked("y = -(1 << 1100) / 7"),
    "f6_round_digits_overflow": locked("y = round(1.5e308, -308)"),
    "f6_round_digits_overflow_negative": locked("y = round(-1.6e308, -308)"),
    "f6_round_digits_unknown_overflow": locked('x = 0.0 if read_flag("k") else 1.5e308\ny = round(x, -308)'),
    "f6_round_in_fstring": locked('t = f"{round(1.7e308, -308)}"'),
}
FOLDING_SAFE = {
    "f6_safe_int_div": prog(PAY1, "y = (1 << 1000) / (1 << 999)\nif y == 2.0:\n    pay(1)\nelse:\n    pay(5)"),
    "f6_safe_round_digits": prog(PAY1, "if round(1e308, -309) == 0.0 and round(2.675, 2) == 2.67:\n    pay(1)\n"
                                 "else:\n    pay(5)"),
    "f6_safe_round_small_unknown": prog(PAY1, 'x = 0.0 if read_flag("k") else 15.0\ny = round(x, -1)\npay(1)'),
}


def test_family6_constant_folds_raise_what_the_general_path_raises() -> None:
    results = check_family(FOLDING, FOLDING_SAFE)
    wrongly = [n for n in FOLDING if results[n]["status"] == "proved"]
    assert not wrongly, wrongly
    for name in FOLDING:
        assert results[name]["outcome"] == "runtime_error", results[name]


@pytest.mark.parametrize("name", ["f6_round_digits_overflow"])
def test_family6_a_fold_that_raises_is_a_verdict_not_a_crash(name: str) -> None:
    results = run({name: FOLDING[name]})
    assert results[name]["status"] == "not_proved", results[name]
    assert any(o[0] == "exception" and o[1] == "violated" and "OverflowError" in o[2]
               for o in results[name]["obligations"]), results[name]


# ------------------------------------------------------------------------------------ must prove
# Ordinary programs (issue 18): an ASCII digit test on unknown text, a money amount in a message.
# An order against a constant above U+FFFF stays unknown: z3 has no character above U+2FFFF.

ORDINARY = {
    "ok_digit_test": prog("@clauz3.guarantee(fam.max_pay(9))\n",
                          'c = read_str("pin")\nif len(c) == 1 and "0" <= c <= "9":\n    pay(int(c))'),
    "ok_money_text_length": prog('@clauz3.guarantee(fam.only_to(["ok"]))\n',
                                 'x = read_float("a")\nif 0 <= x <= 1000:\n    t = f"{x:.2f}"\n'
                                 '    if len(t) <= 7:\n        send("ok", 1)\n    else:\n        send("bad", 1)'),
    "ok_int_text_width": prog('@clauz3.guarantee(fam.only_to(["ok"]))\n',
                              'n = read_int("a")\nif len(f"{n:05d}") == 5:\n    send("ok", 1)\nelse:\n'
                              '    send("bad", 1)'),
}
NOT_ORDINARY = {
    # z3 cannot represent a character above U+2FFFF: "no one-character text is above it" is false in Python.
    "no_order_above_z3_alphabet": prog("@clauz3.guarantee(fam.max_pay(1))\n",
                                       'c = read_str("s")\nif len(c) == 1 and c > "\\U0002ffff":\n    pay(5)'),
}


def test_ordinary_text_order_and_format_specs_prove() -> None:
    results = run({**ORDINARY, **NOT_ORDINARY})
    assert_no_lie(results)
    assert all(results[n]["status"] == "proved" for n in ORDINARY), {n: results[n] for n in ORDINARY}
    assert all(results[n]["status"] == "not_proved" for n in NOT_ORDINARY), {n: results[n] for n in NOT_ORDINARY}
