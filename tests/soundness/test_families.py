"""Issue 10, families 1–10: no program may be `proved` for a guarantee it breaks when run.

Every program below is checked and proved against the small test layer in ``gen_layers/`` and then run
by the real interpreter under the real monitor (``layers/famrun.py``, one subprocess: TL-6). The
universal rule: a program whose proof is ``proved`` must run to ``completed`` — a soundness
violation (the monitor stopped a call the proof allowed, or the end state broke a proved end-state
guarantee) or a runtime error (an exception the proof did not rule out) means the proof lied.
Each family also pins the chosen semantics (docs/semantics.md) with a specific expectation.
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

HEADER = """import math

import clauz3
from tools.gen.trusted import contracts as fam
from tools.gen.trusted.effects import lock, note, pair, pay, read_int, send, unlock


"""

PAY1 = "@clauz3.guarantee(fam.max_pay(1))\n"
LOCKED = '@clauz3.guarantee(fam.locked_at_end("d"))\n'
ONLY_OK = '@clauz3.guarantee(fam.only_to(["ok"]))\n'


def prog(guarantee: str, body: str) -> str:
    return HEADER + guarantee + "def main() -> None:\n" + "".join(f"    {line}\n" for line in body.strip("\n").split("\n"))


# Family 1: binding a collection through any expression form gives an independent value.
ALIASING = {
    "alias_or": prog(PAY1, "a = [1]\nb = a or [5]\na.append(100)\npay(b[-1])"),
    "alias_and": prog(PAY1, "a = [1]\nb = a and a\na.append(100)\npay(b[-1])"),
    "alias_ifexp": prog(PAY1, 'a = [1]\nb = a if read_int("k") >= 0 else a\na.append(100)\npay(b[-1])'),
    "alias_ifexp_true": prog(PAY1, "a = [1]\nb = a if True else [2]\na[0] = 100\npay(b[-1])"),
    "alias_dict_get": prog(PAY1, 'a = [1]\nd = {"k": [0]}\nb = d.get("z", a)\na.append(100)\npay(b[-1])'),
    "alias_dict_or": prog(PAY1, 'd = {"x": 1}\ne = d or {"x": 0}\nd["x"] = 100\npay(e["x"])'),
    "alias_dict_ifexp": prog(PAY1, 'd = {"x": 1}\ne = d if read_int("k") >= 0 else d\nd["x"] = 100\npay(e["x"])'),
    "alias_set_or": prog(PAY1, "s = {1}\nt = s or {0}\ns.add(100)\npay(len(t))"),
    "alias_mutate_other_side": prog(PAY1, "a = [1]\nb = a or [5]\nb2 = list(b)\nb2.append(100)\npay(a[-1])"),
}

# Family 2: dict views are snapshots taken when keys()/values()/items() is called.
VIEWS = {
    "view_values": prog(PAY1, 'd = {"a": 1}\nvs = d.values()\nd["b"] = 100\nfor v in vs:\n    pay(v)'),
    "view_keys": prog(PAY1, 'd = {"a": 1}\nks = d.keys()\nd["bb"] = 2\nfor k in ks:\n    pay(len(k) * 100 - 99)'),
    "view_items": prog(PAY1, 'd = {"a": 1}\nit = d.items()\nd["a"] = 100\nfor k, v in it:\n    pay(v)'),
    "view_len": prog(PAY1, 'd = {"a": 1}\nks = d.keys()\nd["b"] = 2\npay(len(ks))'),
}

# Family 3: a loop iterates the collection as it was at loop entry.
ITERATION = {
    "iter_list_append": prog(PAY1, "a = [1]\nfor x in a:\n    pay(x)\n    if len(a) < 3:\n        a.append(100)"),
    "iter_list_setitem": prog(PAY1, "a = [1, 0]\nfor x in a:\n    pay(x)\n    a[1] = 100"),
    "iter_dict_add": prog(LOCKED, 'd = {"a": 1}\nunlock("d")\nfor k in d:\n    d[k + "x"] = 2\nlock("d")'),
    "iter_items_add": prog(LOCKED, 'd = {"a": 1}\nunlock("d")\nfor k, v in d.items():\n    d[k + "x"] = v\nlock("d")'),
    # The snapshot holds the keys; d[k] reads the dict as it is now, in both the proof and the run.
    "iter_dict_reads_current": prog(PAY1, 'd = {"a": 1, "b": 0}\nfor k in d:\n    pay(d[k])\n    d["b"] = 100'),
    "iter_values_overwrite": prog(PAY1, 'd = {"a": 1, "b": 0}\nfor v in d.values():\n    pay(v)\n    d["b"] = 100'),
    "iter_set_add": prog(LOCKED, 's = {1}\nunlock("d")\nfor x in s:\n    s.add(x + 1)\nlock("d")'),
    "iter_comprehension_source": prog(PAY1, "a = [1]\nb = [x for x in a]\na.append(100)\npay(b[-1])"),
    # A mutation inside a comprehension stays (only the comprehension's variable is scoped).
    "comp_mutation_stays": prog(PAY1, "a = [1]\nb = [a.append(2) for x in [1, 2]]\npay(len(a) - 2)"),
    "comp_set_mutation_stays": prog(PAY1, "s = {1}\nb = [s.add(x) for x in [5, 6]]\npay(len(s) - 2)"),
    "comp_mutation_over_limit": prog(PAY1, "a = [1]\nb = [a.append(2) for x in [1, 2]]\npay(len(a))"),
}

# Family 4: sets iterate in insertion order everywhere (never CPython's hash order).
SETS = {
    "set_loop_break": prog("@clauz3.guarantee(fam.max_pay(2))\n", "for x in {2, 9}:\n    pay(x)\n    break"),
    "set_list_first": prog("@clauz3.guarantee(fam.max_pay(2))\n", "pay(list({2, 9})[0])"),
    "set_builtin_first": prog("@clauz3.guarantee(fam.max_pay(2))\n", "pay(list(set([2, 9]))[0])"),
    "set_added_order": prog("@clauz3.guarantee(fam.max_pay(2))\n", "s = {2}\ns.add(9)\nfor x in s:\n    pay(x)\n    break"),
    "set_str_order": prog('@clauz3.guarantee(fam.only_to(["ok"]))\n',
                          'for x in {"ok", "b", "c", "d", "e", "f", "g"}:\n    send(x, 1)\n    break'),
    "set_dedupe_keeps_first": prog(ONLY_OK, 'for x in {"ok", "ok"}:\n    send(x, 1)'),
}

# Family 5: `in`, de-duplication, count/index and container == compare by == only (NaN never equals).
NAN = {
    "nan_in_list": prog(PAY1, "n = math.inf - math.inf\nif n in [n]:\n    pay(100)\npay(1)"),
    "nan_not_in_list": prog(PAY1, "n = math.inf - math.inf\nif n not in [n]:\n    pay(100)"),
    "nan_set_len": prog(PAY1, "n = math.inf - math.inf\nif len({n, n}) == 1:\n    pay(100)"),
    "nan_list_eq": prog(PAY1, "n = math.inf - math.inf\nif [n] == [n]:\n    pay(100)"),
    "nan_tuple_eq": prog(PAY1, "n = math.inf - math.inf\nif (n, 1) == (n, 1):\n    pay(100)"),
    "nan_count": prog(PAY1, "n = math.inf - math.inf\nxs = [n, n]\nif xs.count(n) > 0:\n    pay(100)"),
    "nan_dict_key": prog(PAY1, "n = math.inf - math.inf\nd = {n: 1}\nif n in d:\n    pay(100)"),
    "nan_dict_get": prog(PAY1, "n = math.inf - math.inf\nd = {n: 100}\npay(d.get(n, 0))"),
    "nan_dict_len": prog(PAY1, "n = math.inf - math.inf\nd = {n: 1}\nd[n] = 2\nif len(d) == 1:\n    pay(100)"),
    "nan_set_in": prog(PAY1, "n = math.inf - math.inf\ns = {n}\nif n in s:\n    pay(100)"),
    "nan_tuple_in": prog(PAY1, "n = math.inf - math.inf\nif (n,) in [(n,)]:\n    pay(100)"),
}

# Family 6: branch merges keep bool/int/float apart.
MERGES = {
    "merge_bool_int_str": prog('@clauz3.guarantee(fam.only_to(["1", "2"]))\n',
                               'x = True if read_int("k") >= 0 else 2\nsend(str(x), 1)'),
    "merge_bool_int_fstring": prog('@clauz3.guarantee(fam.only_to(["1", "2"]))\n',
                                   'x = True if read_int("k") >= 0 else 2\nsend(f"{x}", 1)'),
    "merge_big_int_float": prog(PAY1, 'x = 2 ** 53 + 1 if read_int("k") >= 0 else 0.5\nif x - 2 ** 53 == 0:\n    pay(1)\nelse:\n    pay(100)'),
    "merge_int_float_if": prog(PAY1, 'x = 0.5\nif read_int("k") >= 0:\n    x = 2 ** 53 + 1\nif x == 2 ** 53:\n    pay(1)\nelse:\n    pay(100)'),
    "merge_bool_int_eq": prog(PAY1, 'x = True if read_int("k") >= 0 else 2\nif str(x) == "1":\n    pay(1)\nelse:\n    pay(100)'),
    "merge_max_keeps_bool": prog('@clauz3.guarantee(fam.only_to(["1"]))\n', "send(str(max(True, 1)), 1)"),
    "merge_min_tie_int": prog('@clauz3.guarantee(fam.only_to(["1"]))\n', "send(str(min(1, 1.0)), 1)"),
    "merge_bool_arith": prog(PAY1, 'x = True if read_int("k") >= 0 else 0.5\npay(int(x * 2) - 1)'),
}

# Family 7: the interpreter's float sum is left to right on every CPython version.
SUMS = {
    "sum_float_order": prog(PAY1, "if sum([1e16, 1.0, -1e16]) == 0.0:\n    pay(1)\nelse:\n    pay(100)"),
    "sum_float_start": prog(PAY1, "if sum([1.0, -1e16], 1e16) == 0.0:\n    pay(1)\nelse:\n    pay(100)"),
    # int <-> str of 1,000 digits: the same whatever int-max-str-digits the run's environment sets.
    "digits_int_of_str": prog(LOCKED, 'unlock("d")\ny = int("7" * 1000)\nlock("d")'),
    "digits_str_of_int": prog(LOCKED, 'unlock("d")\ny = str(10 ** 1000) + f"{7 ** 1200}"\nlock("d")'),
    "digits_literal": prog(LOCKED, f'unlock("d")\ny = {"9" * 1000} + 1\nlock("d")'),
}

# Family 8: every exception the interpreter can raise is ruled out by the proof (or the proof fails).
EXCEPTIONS = {
    "exc_str_huge_int_ok": prog(LOCKED, 'unlock("d")\ns = str(10 ** 5000)\nlock("d")'),
    "exc_fstring_huge_int_ok": prog(LOCKED, 'unlock("d")\ns = f"{10 ** 5000}"\nlock("d")'),
    "exc_float_pow_overflow": prog(LOCKED, 'unlock("d")\ny = 2.0 ** 5000\nlock("d")'),
    "exc_int_to_float_overflow": prog(LOCKED, 'unlock("d")\ny = 10 ** 400 + 0.5\nlock("d")'),
    "exc_float_of_huge_int": prog(LOCKED, 'unlock("d")\ny = float(10 ** 400)\nlock("d")'),
    "exc_true_div_huge": prog(LOCKED, 'unlock("d")\ny = 10 ** 400 / 3\nlock("d")'),
    "exc_div_zero_float": prog(LOCKED, 'unlock("d")\ny = 1 / 0.0\nlock("d")'),
    "exc_mod_zero_float": prog(LOCKED, 'unlock("d")\ny = 1.5 % 0.0\nlock("d")'),
    "exc_floor_inf": prog(LOCKED, 'unlock("d")\ny = math.floor(math.inf)\nlock("d")'),
    "exc_floor_nan": prog(LOCKED, 'unlock("d")\ny = math.floor(math.inf - math.inf)\nlock("d")'),
    "exc_int_of_inf": prog(LOCKED, 'unlock("d")\ny = int(math.inf)\nlock("d")'),
    "exc_neg_shift": prog(LOCKED, 'unlock("d")\ny = 1 << -1\nlock("d")'),
    "exc_chr_range": prog(LOCKED, 'unlock("d")\ny = chr(-1)\nlock("d")'),
    "exc_min_empty": prog(LOCKED, 'xs: list[int] = []\nunlock("d")\ny = min(xs)\nlock("d")'),
    "exc_index_missing": prog(LOCKED, 'unlock("d")\ny = [1, 2].index(3)\nlock("d")'),
    "exc_key_missing": prog(LOCKED, 'd = {"a": 1}\nunlock("d")\ny = d["b"]\nlock("d")'),
    "exc_int_str_bad": prog(LOCKED, 'unlock("d")\ny = int("x1")\nlock("d")'),
    "exc_int_str_long": prog(LOCKED, 'unlock("d")\ny = int("1" * 5000)\nlock("d")'),
    "exc_int_pow_float_overflow": prog(LOCKED, 'unlock("d")\ny = 10.0 ** 400\nlock("d")'),
    "exc_float_mul_inf_ok": prog(LOCKED, 'unlock("d")\ny = 1e308 * 10.0\nlock("d")'),
    "exc_str_mul_neg_ok": prog(LOCKED, 'unlock("d")\ny = "ab" * -3\nlock("d")'),
    "exc_float_pow_zero_neg": prog(LOCKED, 'unlock("d")\ny = 0.0 ** -1.0\nlock("d")'),
    # CPython gives a complex number here; the subset has none: the interpreter raises ValueError.
    "exc_float_pow_fraction": prog(LOCKED, 'unlock("d")\ny = (-8.0) ** 0.5\nlock("d")'),
    "exc_float_pow_symbolic": prog(LOCKED, 'n = read_int("k")\nunlock("d")\ny = 10.0 ** (n * 200)\nlock("d")'),
    "exc_float_pow_small_ok": prog(LOCKED, 'n = read_int("k")\nunlock("d")\ny = 0.5 ** float(n)\nlock("d")'),
    "exc_split_empty": prog(LOCKED, 'unlock("d")\ny = "ab".split("")\nlock("d")'),
    "exc_ord_two_chars": prog(LOCKED, 'unlock("d")\ny = ord("ab")\nlock("d")'),
    "exc_float_of_bad_str": prog(LOCKED, 'unlock("d")\ny = float("x")\nlock("d")'),
    "exc_round_inf": prog(LOCKED, 'unlock("d")\ny = round(math.inf)\nlock("d")'),
    "exc_sum_huge_int_float": prog(LOCKED, 'unlock("d")\ny = sum([10 ** 400], 0.5)\nlock("d")'),
    "exc_str_repeat_overflow": prog(LOCKED, 'n = read_int("k")\nunlock("d")\ny = "ab" * (n * 10 ** 20)\nlock("d")'),
    "exc_unhashable_key_store": prog(LOCKED, 'unlock("d")\nd = {}\nd[[1]] = 2\nlock("d")'),
    "exc_unhashable_set_builtin": prog(LOCKED, 'unlock("d")\ns = set([[1]])\nlock("d")'),
    # Looking up an unhashable value finds nothing (by ==), where CPython raises TypeError.
    # CPython hashes a lookup's value first: a surely unhashable one raises TypeError, so it is refused.
    "exc_unhashable_in_set": prog(LOCKED, 's = {1}\nunlock("d")\nif [1] in s:\n    pay(1)\nlock("d")'),
    "exc_unhashable_dict_get": prog(LOCKED, 'd = {1: 2}\nunlock("d")\ny = d.get([1], 0)\nlock("d")'),
    "exc_isinf_huge_int": prog(LOCKED, 'unlock("d")\ny = math.isinf(10 ** 400)\nlock("d")'),
    "exc_isnan_huge_int": prog(LOCKED, 'unlock("d")\ny = math.isnan(10 ** 400)\nlock("d")'),
    "exc_isclose_huge_int": prog(LOCKED, 'unlock("d")\ny = math.isclose(10 ** 400, 1.0)\nlock("d")'),
    "exc_isinf_symbolic_int": prog(LOCKED, 'n = read_int("k")\nunlock("d")\ny = math.isinf(n * 10 ** 400)\nlock("d")'),
    "exc_literal_to_float": prog(LOCKED, f'unlock("d")\ny = {2 ** 1024 - 2 ** 969} + 0.5\nlock("d")'),
    # int ** -n is a float for n > 0 but an int otherwise: refused, it has no one static type.
    "exc_int_pow_negated": prog(LOCKED, 'n = read_int("k")\nunlock("d")\ny = 10 ** -n\nlock("d")'),
}

# Family 10: keyword arguments evaluate in source order.
KWARGS = {
    "kw_effect_order": prog(LOCKED, 'pair(b=unlock("d"), a=lock("d"))'),
    "kw_effect_order_ok": prog(LOCKED, 'pair(b=lock("d"), a=unlock("d"))'),
    "kw_helper_order": prog(LOCKED, 'x = both(b=unlock("d"), a=lock("d"))').replace(
        LOCKED, "def both(a: int, b: int) -> int:\n    return a + b\n\n\n" + LOCKED),
    # An item assignment evaluates the value before the subscript (CPython's order).
    "kw_setitem_order": prog(LOCKED, 'd = {0: 0}\nd[lock("d")] = unlock("d")'),
    # A dict display evaluates key 1, value 1, key 2, value 2…
    "kw_dict_display_order": prog(LOCKED, 'd = {1: unlock("d"), lock("d"): 2}'),
    "kw_dict_display_order_bad": prog(LOCKED, 'd = {1: lock("d"), unlock("d"): 2}'),
}

ALL: dict[str, str] = {**ALIASING, **VIEWS, **ITERATION, **SETS, **NAN, **MERGES, **SUMS, **EXCEPTIONS, **KWARGS}


def _run(programs: dict[str, str], *flags: str, **env_vars: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED="0", **env_vars)
    proc = subprocess.run([sys.executable, str(RUNNER), *flags], input=json.dumps(programs), capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return _run(ALL)


def _honest(name: str, r: dict[str, Any]) -> None:
    """The universal rule: proved ⇒ the real run completes (monitor on)."""
    if r["status"] == "proved":
        assert r["outcome"] == "completed", f"{name}: proved, but the run ended {r['outcome']}: {r['error']}"


def _check_family(family: dict[str, str], results: dict[str, Any]) -> None:
    assert family and all(name in results for name in family)
    for name in family:
        _honest(name, results[name])


def _pays(r: dict[str, Any]) -> list[int]:
    return [args["amount"] for eff, args in r["trace"] if eff == "pay"]


def test_family1_aliasing_binding_gives_an_independent_value(results: dict[str, Any]) -> None:
    _check_family(ALIASING, results)
    # One MUT-1 rule for every expression form: a collection the bound value may be is no longer
    # owned, so mutating it is refused where CPython would share it (below the checker the
    # interpreter still copies: tests/interp/test_value_semantics.py).
    for name in ALIASING:
        r = results[name]
        if name == "alias_mutate_other_side":
            assert r["status"] == "proved" and r["outcome"] == "completed" and _pays(r) == [1], r
            continue
        assert r["status"] == "refused" and r["codes"] == ["mutation-not-owned"], (name, r)


def test_family2_dict_views_are_snapshots(results: dict[str, Any]) -> None:
    _check_family(VIEWS, results)
    for name in VIEWS:
        r = results[name]
        assert r["status"] == "proved" and r["outcome"] == "completed", (name, r)
        assert _pays(r) == [1], (name, r)


def test_family3_loops_iterate_a_snapshot(results: dict[str, Any]) -> None:
    _check_family(ITERATION, results)
    for name in ITERATION:
        r = results[name]
        if name == "comp_mutation_over_limit":
            assert r["status"] != "proved" and "amount=3" in r["error"], r
            continue
        if name == "iter_dict_reads_current":
            assert r["status"] != "proved" and _pays(r) == [1] and "amount=100" in r["error"], r
            continue
        assert r["status"] == "proved" and r["outcome"] == "completed", (name, r)
        if "pay(" in ITERATION[name]:
            assert max(_pays(r)) <= 1, (name, r)


def test_family4_sets_iterate_in_insertion_order(results: dict[str, Any]) -> None:
    _check_family(SETS, results)
    for name in SETS:
        r = results[name]
        assert r["status"] == "proved" and r["outcome"] == "completed", (name, r)
    assert _pays(results["set_loop_break"]) == [2]
    assert _pays(results["set_list_first"]) == [2]
    assert results["set_str_order"]["trace"][0][1]["to"] == "ok"


def test_family4_set_order_does_not_depend_on_the_hash_seed() -> None:
    programs = {k: SETS[k] for k in ("set_str_order", "set_loop_break")}
    seen = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, str(RUNNER)], input=json.dumps(programs), capture_output=True,
                              text=True, env=env, cwd=ROOT, timeout=600)
        out = json.loads(proc.stdout)
        seen.add(json.dumps([out[k]["trace"] for k in sorted(out)]))
    assert len(seen) == 1, seen


def test_family5_nan_is_never_found_by_identity(results: dict[str, Any]) -> None:
    _check_family(NAN, results)
    for name in NAN:
        r = results[name]
        if name == "nan_not_in_list":
            # NaN is not in [NaN]: the payment of 100 happens, so the limit is not proved (the monitor stops it).
            assert r["status"] != "proved" and "amount=100" in r["error"], (name, r)
            continue
        assert r["outcome"] == "completed", (name, r)
        if name in ("nan_in_list", "nan_dict_get"):
            assert _pays(r) == ([1] if name == "nan_in_list" else [0]), (name, r)
        else:
            assert _pays(r) == [], (name, r)


def test_family6_merges_keep_python_types(results: dict[str, Any]) -> None:
    _check_family(MERGES, results)
    # str(True) is "True": the guarantee "only 1 or 2" is broken and must not be proved.
    for name in ("merge_bool_int_str", "merge_bool_int_fstring", "merge_max_keeps_bool"):
        r = results[name]
        assert r["status"] != "proved" and 'to="True"' in r["error"], (name, r)
    # 2**53 + 1 stays an int: x - 2**53 == 1, so the run pays 100 and the limit must not be proved.
    for name in ("merge_big_int_float", "merge_int_float_if", "merge_bool_int_eq"):
        r = results[name]
        assert r["status"] != "proved" and "amount=100" in r["error"], (name, r)
    # Where the types are told apart exactly, proofs still go through.
    for name in ("merge_min_tie_int", "merge_bool_arith"):
        assert results[name]["status"] == "proved" and results[name]["outcome"] == "completed", results[name]


def test_family7_float_sum_is_left_to_right_on_every_version(results: dict[str, Any]) -> None:
    _check_family(SUMS, results)
    compensated = _run(SUMS, "--compensated-sum", PYTHONINTMAXSTRDIGITS="640")
    for name in ("digits_int_of_str", "digits_str_of_int", "digits_literal"):
        for r in (results[name], compensated[name]):
            assert r["status"] == "proved" and r["outcome"] == "completed", (name, r)
    for name in ("sum_float_order", "sum_float_start"):
        assert results[name]["status"] == "proved", (name, results[name])
        # The same result whatever CPython's own sum() does (≥ 3.12 compensates).
        assert _pays(results[name]) == [1] and _pays(compensated[name]) == [1], (name, compensated[name])


def test_family8_exceptions_are_obligations(results: dict[str, Any]) -> None:
    _check_family(EXCEPTIONS, results)
    for name in EXCEPTIONS:
        r = results[name]
        if name.endswith("_ok"):
            assert r["outcome"] == "completed" and r["status"] == "proved", (name, r)
        elif name in ("exc_float_pow_symbolic", "exc_str_repeat_overflow", "exc_isinf_symbolic_int"):
            assert r["status"] != "proved", (name, r)  # n may be 0 (no overflow): the run completes here
        else:
            assert r["status"] != "proved", (name, r)
            assert r["status"] == "refused" or r["outcome"] == "runtime_error", (name, r)
    assert results["exc_int_pow_negated"]["codes"] == ["type-error"]


def test_family9_guarantee_on_another_function_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "helper_guarantee.py"
    path.write_text(HEADER + PAY1 + "def helper() -> None:\n    pay(100)\n\n\ndef main() -> None:\n    helper()\n")
    gen = LAYERS.parent / "gen_layers"
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(path), "--trusted-root",
                           str(gen / "tools" / "gen" / "trusted"), "--import-root", str(gen)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env=dict(os.environ, CLAUZ3_HOME=str(tmp_path / "h"), CLAUZ3_CACHE=str(tmp_path / "c")))
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    text = proc.stdout + proc.stderr
    assert "helper" in text and "main" in text and "Traceback" not in text, text


def test_family10_keyword_arguments_evaluate_in_source_order(results: dict[str, Any]) -> None:
    _check_family(KWARGS, results)
    bad, ok = results["kw_effect_order"], results["kw_effect_order_ok"]
    # Source order: unlock, then lock → locked at the end, proved; the other way round is violated.
    assert [eff for eff, _ in bad["trace"]] == ["unlock", "lock", "pair"], bad
    assert bad["status"] == "proved" and bad["outcome"] == "completed", bad
    assert [eff for eff, _ in ok["trace"]] == ["lock", "unlock", "pair"], ok
    assert ok["status"] != "proved", ok
    bad_display = results["kw_dict_display_order_bad"]
    assert [eff for eff, _ in bad_display["trace"]] == ["lock", "unlock"] and bad_display["status"] != "proved"
    for name in ("kw_helper_order", "kw_setitem_order", "kw_dict_display_order"):
        r = results[name]
        assert [eff for eff, _ in r["trace"]] == ["unlock", "lock"], (name, r)
        assert r["status"] == "proved" and r["outcome"] == "completed", (name, r)


# ---------------------------------------------------------------------------------- class sweeps
# Families 5, 6 and 1 as classes: every combination below is proved and run. A condition and its
# negation guard a payment of 100 under max_pay(1), so exactly one of the pair can be proved and
# the run must agree; the default tier sweeps a slice, the soak tier all of it.

NAN_EXPR = "(math.inf - math.inf)"
SWEEP_VALUES = ["1", "1.0", "True", "0", "-0.0", "n", "2 ** 53 + 1", "float(2 ** 53)"]
SWEEP_CONTAINERS = ["[{a}]", "({a},)", "{{{a}}}", "{{{a}: 1}}", "[{a}, {b}]", "({a}, {b})", "{{{a}, {b}}}",
                    "{{{a}: 1, {b}: 2}}"]
MERGE_VALUES = ["True", "1", "1.0", "2 ** 53 + 1", "0.5", "False"]
MERGE_TESTS = ['str(x) == "True"', 'str(x) == "1"', 'x == 1', 'str(x * 2) == "2"', 'x / 2 == 0.5', 'str(-x) == "-1"',
               'x - 2 ** 53 == 1', 'f"{x}" == "True"', 'bool(x)', 'str(max(x, 1)) == "True"', 'x in {1.0}',
               'int(x) == 1', 'str(float(x)) == "1.0"', 'x > 0.9', 'str(x // 1) == "1"']


def _container_conditions(values: list[str]) -> list[str]:
    out = []
    for a in values:
        for b in values:
            out += [f"{b} in {c.format(a=a, b=b)}" for c in SWEEP_CONTAINERS]
            out += [f"len({c.format(a=a, b=b)}) == 1" for c in SWEEP_CONTAINERS]
            out += [f"[{a}] == [{b}]", f"({a}, 1) == ({b}, 1)", f"{{{a}: 1}} == {{{b}: 1}}", f"{{{a}}} == {{{b}}}",
                    f"[{a}, 1] < [{b}, 2]", f"[{a}].count({b}) == 1"]
    return out


def _merge_conditions(values: list[str]) -> list[tuple[str, str]]:
    out = []
    for a in values:
        for b in values:
            if a != b:
                for sel in (">= 0", "> 5"):
                    out += [(f'x = {a} if read_int("k") {sel} else {b}', e) for e in MERGE_TESTS]
    return out


def _sweep(setups: list[tuple[str, str]]) -> None:
    programs = {}
    for k, (setup, cond) in enumerate(setups):
        for neg in (0, 1):
            programs[f"s{k}_{neg}"] = prog(PAY1, f"{setup}\nif {'not ' if neg else ''}({cond}):\n    pay(100)")
    out = _run(programs)
    assert len(out) == len(programs)
    for k, (setup, cond) in enumerate(setups):
        pair = [out[f"s{k}_{neg}"] for neg in (0, 1)]
        for r in pair:
            _honest(f"{setup}; {cond}", r)
        assert not all(r["status"] == "proved" for r in pair), (setup, cond)
    assert any(r["status"] == "proved" for r in out.values())


def test_sweep_nan_and_numeric_keys_in_containers() -> None:
    _sweep([(f"n = {NAN_EXPR}", c) for c in _container_conditions(["1", "True", "-0.0", "n"])])


def test_sweep_merged_numbers() -> None:
    _sweep(_merge_conditions(["True", "1"]))  # the soak tier merges every pair of MERGE_VALUES


@pytest.mark.soak
def test_sweep_all_soak() -> None:
    _sweep([(f"n = {NAN_EXPR}", c) for c in _container_conditions(SWEEP_VALUES)] + _merge_conditions(MERGE_VALUES))


def test_family6_counterexample_shows_the_value_the_run_takes(tmp_path: Path) -> None:
    path = tmp_path / "merged.py"
    path.write_text(prog(PAY1, 'x = True if read_int("k") > 1 else 5\npay(x)'))
    gen = LAYERS.parent / "gen_layers"
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(path), "--trusted-root",
                           str(gen / "tools" / "gen" / "trusted"), "--import-root", str(gen)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env=dict(os.environ, CLAUZ3_HOME=str(tmp_path / "h"), CLAUZ3_CACHE=str(tmp_path / "c")))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "pay(amount=5)" in proc.stdout and "MixedV" not in proc.stdout + proc.stderr, proc.stdout
