"""Red team for issue 20 (flows.never / flows.only): programs a hostile agent writes to get a flow guarantee
proved while data from the read effect still reaches, or decides, the sink.

Every program goes through the real checker, the real prover and the real interpreter with the run-time
monitor, on the flow test layer of tests/soundness/flow_layer. A program is run twice with different read
results: when the guarantee is proved, what reaches the sink (and whether the calls happen at all) must be
the same on both runs; when it is not proved, the monitor must stop the call that carries the label.

Finding fixed here (language/flowlabels.py): an int converted to float (``n + 0.5``, ``x -= 0.5``,
``sum([n, 0.5])``, ``math.isinf(n)``, ``math.isclose(n, 1.0)``) raises OverflowError for an int past
1e308, so whether the run went on said something about a read number — these counted as operations that
cannot raise, and the guarantee was proved.

Finding fixed here (interp/flowtrack.py, rule ``may_stop`` in language/flowlabels.py): the run-time labels
put a branch's condition on later calls when the branch *taken* may stop the run, but not when the branch
*not taken* (or a loop body that ran zero times) may: the monitor let the call through on exactly the runs
where the read data kept the risky code from running (MONITOR below).
"""

from __future__ import annotations

import io
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent / "flow_layer"
HEAD = '''import math

import clauz3
from tools.flow.trusted import contracts as flow
from tools.flow.trusted.effects import log, read_num, read_web, read_words, send
'''
PHISH = "www.phish.example buy now"
BIG = 10**400  # an int a world may return: past float's range

SENT: list[tuple[str, str]] = []
LOGGED: list[int] = []
WORLD: dict[str, Any] = {"page": PHISH, "num": 1}


@pytest.fixture(scope="module")
def layer() -> Any:
    from inproc_layer import load_test_layer

    return load_test_layer([ROOT / "tools" / "flow" / "trusted"], [ROOT])


def _effects() -> dict[str, Any]:
    def read_web(url: str) -> str:
        return str(WORLD["page"])

    def read_num(key: str) -> int:
        return int(WORLD["num"])

    def read_words(key: str) -> list[str]:
        return ["a"]

    def send(to: str, body: str) -> None:
        SENT.append((to, body))

    def log(n: int) -> None:
        LOGGED.append(n)

    return {f"tools.flow.trusted.effects.{f.__name__}": f for f in (read_web, read_num, read_words, send, log)}


def source(body: str, helpers: str = "", contract: str = "web_not_in_send") -> str:
    return (HEAD + "\n" + textwrap.dedent(helpers) + f"\n\n@clauz3.guarantee(flow.{contract}())\n"
            "def main() -> None:\n    page = read_web(\"u\")\n" + textwrap.indent(textwrap.dedent(body), "    "))


def checked(layer: Any, tmp_path: Path, src: str) -> Any:
    from clauz3.language import check_source

    path = tmp_path / "main.py"
    path.write_text(src)
    return check_source(src.encode(), str(path), layer, "main")


def verdict(program: Any) -> str:
    from clauz3.prover.api import prove

    result = prove(program, obligation_timeout=5.0)
    return next(o for o in result.obligations if o.kind == "guarantee").conclusion


def run(program: Any, page: str, num: int) -> tuple[str, list[tuple[str, str]], list[int], str]:
    from clauz3.interp.api import execute

    SENT.clear()
    LOGGED.clear()
    WORLD.update(page=page, num=num)
    r = execute(program, _effects(), stdout=io.StringIO(), write_report=False)
    return r.outcome, list(SENT), list(LOGGED), r.error or ""


# name: (helpers, body, contract, (page, num) of run A, (page, num) of run B)
Case = tuple[str, str, str, tuple[str, int], tuple[str, int]]
NUM_LOG = "nothing_read_in_log"
TWO_PAGES = ((PHISH, 1), ("zzz", 1))
TWO_NUMS = ((PHISH, 1), (PHISH, BIG))

# Findings (proved before the fix, the second run stopped on OverflowError: the call of run A told the world
# the number was small). Now: not proved, and the monitor stops the call on run A.
OVERFLOW: dict[str, Case] = {
    "int_plus_float": ("", 'n = read_num("k")\ns = n + 0.5\nlog(0)', NUM_LOG, *TWO_NUMS),
    "float_minus_int": ("", 'x = 0.5 - read_num("k")\nlog(0)', NUM_LOG, *TWO_NUMS),
    "augassign_float": ("", 'x = read_num("k")\nx += 0.5\nlog(0)', NUM_LOG, *TWO_NUMS),
    "sum_with_a_float": ("", 'n = read_num("k")\ns = sum([n, 0.5])\nlog(0)', NUM_LOG, *TWO_NUMS),
    "math_isinf": ("", 'n = read_num("k")\nb = math.isinf(n)\nlog(0)', NUM_LOG, *TWO_NUMS),
    "math_isclose": ("", 'b = math.isclose(read_num("k"), 1.0)\nlog(0)', NUM_LOG, *TWO_NUMS),
}

# Findings on the monitor (not proved, but before the fix the run-time labels let the call through on the run
# where a branch that may stop the run was NOT taken, or a loop whose body may stop it ran zero times; on the
# other run the call was stopped or the run failed, so whether the message went out told the page).
MONITOR: dict[str, Case] = {
    "not_taken_branch_with_a_call": ("", 'if "zz" in page:\n    log(1)\nsend("alice", "went on")',
                                     "web_not_in_send", *TWO_PAGES),
    "not_taken_branch_with_a_lookup": ("", 'd = {"a": 1}\nif "zz" in page:\n    k = d["b"]\nsend("alice", "went on")',
                                       "web_not_in_send", *TWO_PAGES),
    "not_taken_branch_with_an_assert": ("", 'if "zz" in page:\n    assert len(page) > 100\nsend("alice", "went on")',
                                        "web_not_in_send", *TWO_PAGES),
    "zero_iterations_of_a_call": ("", 'picked = [w for w in ["p", "q"] if w in page]\nfor w in picked:\n    log(1)\n'
                                      'send("alice", "went on")', "web_not_in_send", ("p", 1), ("zzz", 1)),
    "zero_iterations_of_a_raise": ("", 'picked = [w for w in ["p", "q"] if w in page]\nfor w in picked:\n'
                                       '    raise ValueError("found")\nsend("alice", "went on")', "web_not_in_send",
                                   ("p", 1), ("zzz", 1)),
}

# Attacks the analysis already catches: never proved, and the monitor stops the call on both runs (or the
# run stops on the program's own error before any call, or the read data made it call nothing).
CAUGHT: dict[str, Case] = {
    "string_methods": ("", 't = "-".join([page.strip(), page.replace("a", "b")]).split(".")[0]\nsend("alice", t)',
                       "web_not_in_send", *TWO_PAGES),
    "bool_plus_zero": ("", 'k = ("phish" in page) + 0\nsend("alice", str(k))', "web_not_in_send", *TWO_PAGES),
    "max_of_list": ("", 'ws = ["m", page[:1]]\nsend("alice", max(ws))', "web_not_in_send", *TWO_PAGES),
    "continue_on_read_data": ("", 'out = ""\nfor w in ["www", "zzz"]:\n    if w in page:\n        continue\n'
                                  '    out = out + w\nsend("alice", out)', "web_not_in_send", *TWO_PAGES),
    "sum_of_filter": ("", 'k = sum([1 for w in ["www", "zzz"] if w in page])\nsend("alice", str(k))',
                      "web_not_in_send", *TWO_PAGES),
    "slice_bound_from_len": ("", 't = "abcdef"[len(page):]\nsend("alice", t)', "web_not_in_send", *TWO_PAGES),
    "fstring_spec": ("", 'n = len(page)\nsend("alice", f"{n:>5}")', "web_not_in_send", *TWO_PAGES),
    "dict_get_default": ("", 'd = {"www.phish.example buy now": "yes"}\nsend("alice", d.get(page, "no"))',
                         "web_not_in_send", *TWO_PAGES),
    "keyword_effect_args": ("", 'send(body="x" + page[:0], to="alice")', "web_not_in_send", *TWO_PAGES),
    "keyword_helper_args": ("def two(a: str, b: str) -> str:\n    return b\n",
                            'send("alice", two(b=page, a="fixed"))', "web_not_in_send", *TWO_PAGES),
    "helper_raises_unless_early_return": (
        'def chk(t: str) -> int:\n    if "phish" in t:\n        return 1\n    d = {"a": 1}\n    return d[t]\n',
        'k = chk(page)\nsend("alice", "went on")', "web_not_in_send", *TWO_PAGES),
    "assert_on_read_data": ("", 'assert "phish" in page\nsend("alice", "went on")', "web_not_in_send", *TWO_PAGES),
    "raise_on_read_data": ("", 'if "phish" in page:\n    raise ValueError("no")\nsend("alice", "went on")',
                           "web_not_in_send", *TWO_PAGES),
    "effect_in_filtered_comprehension": ("", 'xs = [send(w, "hi") for w in ["a", "b"] if w in page]',
                                         "web_not_in_send", ("a b", 1), ("zzz", 1)),
    "send_in_a_loop_over_a_trusted_result": ("", 'for w in read_words("k"):\n    send("alice", page)',
                                             "web_not_in_send", *TWO_PAGES),
    "branch_in_a_loop_over_a_trusted_result": (
        "", 'for w in read_words("k"):\n    if "phish" in page:\n        send("alice", w)', "web_not_in_send",
        *TWO_PAGES),
    "helper_in_a_loop_over_a_trusted_result": ("def tell(w: str, t: str) -> None:\n    send(w, t)\n",
                                               'for w in read_words("k"):\n    tell(w, page)', "web_not_in_send",
                                               *TWO_PAGES),
    "append_in_a_filtered_comprehension": (
        "", 'a = ["x"]\nxs = [a.append(w) for w in ["p", "q"] if w in page]\nsend("alice", str(len(a)))',
        "web_not_in_send", ("p", 1), ("z", 1)),
    "module_constant_indexed_by_read_data": ('NAMES = ["alice", "bob"]\n', 'send(NAMES[len(page) % 2], "hi")',
                                             "web_not_in_send", *TWO_PAGES),
    "effect_imported_under_another_name": ("from tools.flow.trusted.effects import send as s2\n",
                                           's2("alice", page)', "web_not_in_send", *TWO_PAGES),
    "nested_loops_shift_register": (
        "", 'a0 = ""\na1 = ""\na2 = ""\nfor i in [1, 2]:\n    for j in [1, 2]:\n        for k in [1, 2]:\n'
            '            a2 = a1\n            a1 = a0\n            a0 = page\nsend("alice", a2)',
        "web_not_in_send", *TWO_PAGES),
}

# Correctly proved: the sink sees the same on both runs.
PROVED: dict[str, Case] = {
    "abs_of_a_huge_int": ("", 'b = abs(read_num("k"))\nlog(0)', NUM_LOG, *TWO_NUMS),
    "int_float_compare": ("", 'b = read_num("k") < 0.5\nlog(0)', NUM_LOG, *TWO_NUMS),
    "print_a_huge_int": ("", 'print(read_num("k"))\nlog(0)', NUM_LOG, (PHISH, 1), (PHISH, 10**5000)),
    "slice_with_a_huge_bound": ("", 't = "abc"[read_num("k"):]\nlog(0)', NUM_LOG, *TWO_NUMS),
    "find_with_a_huge_start": ("", 't = page.find("a", read_num("k"))\nu = page.find("a", 0, -read_num("k"))\nlog(0)',
                               NUM_LOG, *TWO_NUMS),
    "abs_of_a_huge_negative": ("", 't = abs(-read_num("k")) > 3\nlog(0)', NUM_LOG, *TWO_NUMS),
    "int_equals_float": ("", 't = read_num("k") == 0.5\nu = read_num("k") in [0.5, 1.5]\nlog(0)', NUM_LOG, *TWO_NUMS),
    "int_plus_int_in_a_loop": ("", 'for i, w in enumerate(["a"]):\n    t = i + read_num("k")\nlog(0)', NUM_LOG,
                               *TWO_NUMS),
    "module_constant": ('NAMES = ["alice", "bob"]\n', 'send(NAMES[0], "hi")', "web_not_in_send", *TWO_PAGES),
    "helper_default_reaches_the_sink": ('def greet(who: str, text: str = "hi") -> None:\n    send(who, text)\n',
                                        'greet("alice")', "web_not_in_send", *TWO_PAGES),
    "isinf_where_the_number_may_flow": ("", 'b = math.isinf(read_num("k"))\nsend("alice", "hi")',
                                        "bodies_only_from_num", *TWO_NUMS),
}

# The checker refuses these before any analysis (MUT-1 ownership, constant loop bounds, bound names).
REFUSED: dict[str, tuple[str, str]] = {
    "alias_then_append": ("", 'a = ["x"]\nb = a\nb.append(page)\nsend("alice", a[1])'),
    "append_to_nested_list": ("", 'outer = [["x"]]\nouter[0].append(page)\nsend("alice", outer[0][1])'),
    "append_to_dict_value": ("", 'd = {"k": ["x"]}\nd["k"].append(page)\nsend("alice", d["k"][1])'),
    "helper_mutates_argument": ("def put(xs: list[str], v: str) -> None:\n    xs.append(v)\n",
                                'a = ["x"]\nput(a, page)\nsend("alice", a[1])'),
    "alias_setitem": ("", 'a = {"k": "x"}\nb = a\nb["k"] = page\nsend("alice", a["k"])'),
    "alias_set_add": ("", 's = {"x"}\nt = s\nt.add(page)\nsend("alice", ",".join(list(s)))'),
    "alias_in_an_earlier_iteration": (
        "", 'a = ["x"]\nb = ["y"]\nfor i in [0, 1]:\n    if i == 1:\n        a.append(page)\n'
            '    if i == 0:\n        b = a\nsend("alice", b[-1])'),
    "range_step_from_read_data": ("", 'n = page.count("z")\nfor i in range(0, 1, n):\n    log(i)\n'
                                      'send("alice", "went on")'),
    "enumerate_start_from_read_data": ("", 'c = 0\nfor i, w in enumerate(["a"], len(page)):\n    c = i\n'
                                           'send("alice", str(c))'),
    "loop_count_from_read_data": ("", 'for w in page.split(" "):\n    send("alice", "one")'),
    "maybe_unbound_name": ("", 'if "phish" in page:\n    x = "a"\ny = x\nsend("alice", "went on")'),
    "comprehension_over_a_trusted_result": ("", 'xs = [send(w, page[:1]) for w in read_words("k")]'),
    "break_in_a_loop_over_a_trusted_result": ("", 'for w in read_words("k"):\n    if "phish" in page:\n'
                                                  '        break\nsend("alice", "after")'),
    "return_in_a_loop": ("", 'for w in read_words("k"):\n    if "phish" in page:\n        return\n'
                             'send("alice", "after")'),
    "unpack_a_filtered_list": ("", 'a, b = [w for w in ["x", "y"] if w in page]\nsend("alice", "went on")'),
    "unpack_a_read_list": ("", 'a, b = read_words("k")\nlog(0)'),
    "nested_def_closure": ("", 'def inner() -> str:\n    return page\nsend("alice", inner())'),
    "try_except_on_read_data": ("", 'try:\n    k = int(page)\nexcept ValueError:\n    k = 0\nsend("alice", "x")'),
    "while_on_read_data": ("", 'i = 0\nwhile i < len(page):\n    i += 1\nsend("alice", "x")'),
    "walrus": ("", 'if (n := len(page)) > 3:\n    pass\nsend("alice", "x")'),
    "program_writes_ensures": ('@clauz3.ensures(lambda result: "phish" not in result)\ndef fetch() -> str:\n'
                               '    return read_web("v")\n', 't = fetch()\nsend("alice", "went on")'),
    "optional_compare_may_raise": ("", 'd = {"zzz": 1}\nb = d.get(page) < 3\nsend("alice", "x")'),
    "optional_method_may_raise": ("", 'd = {"zzz": "x"}\nt = d.get(page)\nu = t.upper()\nsend("alice", "x")'),
    "dict_compare": ("", 'b = {"a": len(page)} < {"a": 1}\nsend("alice", "x")'),
    "mixed_list_compare": ("", 'a = [1, "x"]\nb = [1, page[:0]]\nc = a < b\nsend("alice", "went on")'),
}


@pytest.mark.parametrize("name", sorted(OVERFLOW) + sorted(MONITOR) + sorted(CAUGHT))
def test_a_flow_the_read_data_decides_is_not_proved_and_is_stopped(layer: Any, tmp_path: Path, name: str) -> None:
    helpers, body, contract, a, b = {**OVERFLOW, **MONITOR, **CAUGHT}[name]
    program = checked(layer, tmp_path, source(body, helpers, contract))
    assert verdict(program) in ("violated", "unknown"), name
    runs = [run(program, *a), run(program, *b)]
    for outcome, _sent, _logged, error in runs:
        # completed only where the read data made the program call nothing (checked below)
        assert outcome in ("soundness_violation", "runtime_error", "completed"), (name, outcome, error)
        if outcome == "soundness_violation":
            assert "carries read_" in error, error
    assert any(o == "soundness_violation" for o, *_ in runs), (name, runs)
    # whatever the monitor let into the guarantee's sink derives from no forbidden effect: here, nothing at all
    sink = 2 if contract == NUM_LOG else 1
    assert all(not r[sink] for r in runs), (name, runs)


@pytest.mark.parametrize("name", sorted(PROVED))
def test_a_proved_flow_sends_the_same_whatever_the_read_returns(layer: Any, tmp_path: Path, name: str) -> None:
    helpers, body, contract, a, b = PROVED[name]
    program = checked(layer, tmp_path, source(body, helpers, contract))
    assert verdict(program) == "proved", name
    ra, rb = run(program, *a), run(program, *b)
    if contract == "bodies_only_from_num":  # read_num may decide the body: only the run must not be stopped
        assert ra[0] == "completed", ra
        return
    assert ra[0] == rb[0] == "completed", (ra, rb)
    assert ra[1:3] == rb[1:3], (ra, rb)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_checker_refuses_the_laundering_shape(layer: Any, tmp_path: Path, name: str) -> None:
    from clauz3.language.diagnostics import Refused

    helpers, body = REFUSED[name]
    with pytest.raises(Refused):
        checked(layer, tmp_path, source(body, helpers))


def test_a_tree_of_inlined_helpers_is_decided_quickly(layer: Any, tmp_path: Path) -> None:
    """4096 inlined helper bodies: the label analysis (re-run per call site) must end, and say no for the page."""
    helpers = 'def h0(t: str) -> str:\n    if "a" in t:\n        return t\n    return "b"\n'
    for k in range(1, 13):
        helpers += f"\ndef h{k}(t: str) -> str:\n    return h{k - 1}(t) + h{k - 1}(\"x\")\n"
    start = time.monotonic()
    lit = checked(layer, tmp_path, source('send("alice", h12("lit"))', helpers))
    assert verdict(lit) == "proved"
    bad = checked(layer, tmp_path, source('send("alice", h12(page[:1]))', helpers))
    assert verdict(bad) in ("violated", "unknown")
    assert time.monotonic() - start < 60


# ------------------------------------------------------------------ rows, a defaulted sink, an effect group
# These use their own layer (redteam_layers/flow20); TL-6 keeps one layer per process, so they run in a child.

ROWS_ROOT = Path(__file__).resolve().parent / "redteam_layers" / "flow20"
ROWS_CHILD = r'''
import io, json, sys, textwrap
from pathlib import Path
from clauz3.language import check_source
from clauz3.language.layer import load_layer
from clauz3.prover.api import prove
from clauz3.interp.api import execute

root, tmp, cases = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
layer = load_layer([root / "tools" / "rt20" / "trusted"], [root])
from tools.rt20.trusted.rows import Item

HEAD = ("import clauz3\nfrom tools.rt20.trusted import contracts as rt\n"
        "from tools.rt20.trusted.effects import items, page, post, send\nfrom tools.rt20.trusted.rows import Item\n")
out = []
for name, (body, contract, worlds) in sorted(cases.items()):
    src = HEAD + f"\n\n@clauz3.guarantee(rt.{contract}())\ndef main() -> None:\n" + textwrap.indent(body, "    ")
    path = tmp / f"{name}.py"
    path.write_text(src)
    program = check_source(src.encode(), str(path), layer, "main")
    g = next(o for o in prove(program, obligation_timeout=5.0).obligations if o.kind == "guarantee")
    runs = []
    for w in worlds:
        calls = []
        fx = {
            "items": lambda: [Item(name=n, cents=c) for n, c in w.get("items", [])],
            "page": lambda: w.get("page", ""),
            "send": lambda to, body: calls.append(["send", to, body]),
            "post": lambda body, tag="news": calls.append(["post", body, tag]),
        }
        r = execute(program, {f"tools.rt20.trusted.effects.{k}": f for k, f in fx.items()}, stdout=io.StringIO(),
                    write_report=False)
        runs.append([r.outcome, calls])
    out.append([name, g.conclusion, runs])
print(json.dumps(out))
'''
W2 = [{"items": [["a", 1]], "page": "www"}, {"items": [["b", 2], ["c", 3]], "page": "zzz"}]
ROWS: dict[str, tuple[str, str, list[dict[str, Any]], str]] = {
    # name: (body, contract, worlds, expected) — "stopped": not proved, monitor stops every call it constrains;
    # "same": proved, and both worlds make the same calls.
    "row_field_into_send": ('for it in items():\n    send("alice", it.name)\n', "items_not_in_send", W2, "stopped"),
    "row_count_into_send": ('xs = items()\nsend("alice", str(len(xs)))\n', "items_not_in_send", W2, "stopped"),
    "row_built_from_the_page": ('p = page()\nr = Item(name=p, cents=1)\npost(r.name)\n', "page_not_in_any_body",
                                W2, "stopped"),
    "row_built_page_in_another_field": ('p = page()\nr = Item(name="x", cents=len(p))\npost(r.name)\n',
                                        "page_not_in_any_body", W2, "stopped"),
    "effect_group_by_name": ('p = page()\nsend("alice", p)\n', "page_not_in_any_body", W2, "stopped"),
    "keyword_into_a_defaulted_param": ('p = page()\npost(body="hi", tag=p[:2])\n', "post_tag_from_program", W2,
                                       "stopped"),
    "defaulted_param_under_a_branch": ('p = page()\nif "w" in p:\n    post("hi")\n', "post_tag_from_program", W2,
                                       "stopped"),
    "defaulted_param_left_alone": ('p = page()\npost("hi")\n', "post_tag_from_program", W2, "same"),
    "rows_read_but_not_sent": ('xs = items()\nsend("alice", "hello")\n', "items_not_in_send", W2, "same"),
}


def test_rows_defaults_and_groups_in_their_own_layer(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    cases = {k: [b, c, w] for k, (b, c, w, _) in ROWS.items()}
    env = {**os.environ, "PYTHONPATH": str(ROWS_ROOT), "CLAUZ3_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-c", ROWS_CHILD, str(ROWS_ROOT), str(tmp_path), json.dumps(cases)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = {name: (conclusion, runs) for name, conclusion, runs in json.loads(proc.stdout.splitlines()[-1])}
    assert set(results) == set(ROWS)
    for name, (_, contract, _, expected) in ROWS.items():
        conclusion, runs = results[name]
        if expected == "same":
            assert conclusion == "proved", (name, conclusion)
            assert [o for o, _ in runs] == ["completed", "completed"], (name, runs)
            assert runs[0][1] == runs[1][1] and runs[0][1], (name, runs)
            continue
        assert conclusion in ("violated", "unknown"), (name, conclusion)
        assert any(o == "soundness_violation" for o, _ in runs), (name, runs)
        sink = {"items_not_in_send": "send", "page_not_in_any_body": None, "post_tag_from_program": "post"}[contract]
        for _, calls in runs:
            assert not [c for c in calls if sink is None or c[0] == sink], (name, runs)


# Side finding (not a flow): the checker accepts membership of an unhashable value in a set or a dict, where
# CPython raises TypeError (unhashable type: 'list'); clauz3's interpreter answers False (True for `not in`,
# `.get` gives None). So a program clauz3 runs to the end fails under CPython. The flow labels agree with
# clauz3's own run (nothing hidden from the monitor), and the checker now refuses each (the lead's fix).
UNHASHABLE_MEMBERSHIP = ['["w"] in {"w"}', '["w"] not in {"w"}', '["w"] in {"w": 1}', '{"w": 1}.get(["w"]) is None',
                         '("w", ["x"]) in {("w", "y")}']


@pytest.mark.parametrize("expr", UNHASHABLE_MEMBERSHIP)
def test_membership_of_an_unhashable_value_is_refused(layer: Any, tmp_path: Path, expr: str) -> None:
    from clauz3.language.diagnostics import Refused

    with pytest.raises(TypeError, match="unhashable"):
        eval(expr)  # what CPython does with the same line (a literal expression)
    src = HEAD + f"\n\ndef main() -> None:\n    c = {expr}\n    print(c)\n"
    with pytest.raises(Refused):
        checked(layer, tmp_path, src)
