"""Regressions found while writing the standard libraries: conjunctions, str.find positions,
``type[T]`` row results, and counterexample text over symbolic loops (from source, one
layer per process: TL-6, so every proof runs ``clauz3 prove`` in a subprocess)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import z3

from clauz3.prover.methods import _search

SCHEMAS = '''"""Rows of the demo layer."""

import clauz3


class ItemRow(clauz3.Row):
    """One item."""

    name: str
    n: int
'''

EFFECTS = '''"""Demo effects (simulated)."""

from typing import TypeVar

from tools.demo.trusted.schemas import ItemRow

import clauz3
from clauz3.paths import is_plain_path

T = TypeVar("T")


@clauz3.trusted
@clauz3.mock
def f(x: str) -> None:
    """F."""


@clauz3.trusted
@clauz3.mock
def g(x: str, where: dict[str, object] = {}) -> None:
    """G."""


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda path: is_plain_path(path))
def open_path(path: str) -> None:
    """Open a project path."""


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 10)
def items() -> list[ItemRow]:
    """Items."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 5)
def read_rows(schema: type[T], table: str) -> list[T]:
    """Rows of table."""
    return []
'''

CONTRACTS = '''"""Demo contracts."""

from tools.demo.trusted.effects import f, g

from clauz3.spec import ConjunctionSpec, ContractSpec, contract, effect


@contract(description="neither f nor g is called")
def neither() -> ContractSpec:
    return ConjunctionSpec([effect(f).empty(), effect(g).empty()])


@contract(description="f at most {n} times and g only with x")
def mixed(n: int) -> ContractSpec:
    return ConjunctionSpec([effect(f).count() <= n, effect(g).all(lambda e: e.x == "x")])


@contract(description="f never gets the same value twice")
def distinct_f() -> ContractSpec:
    return effect(f).distinct(lambda e: e.x)


@contract(description="f only gets {x}")
def f_only(x: str) -> ContractSpec:
    return effect(f).all(lambda e: e.x == x)
'''

HEADER = (
    "from tools.demo.trusted import contracts as c\n"
    "from tools.demo.trusted.effects import f, g, items, open_path, read_rows\n"
    "from tools.demo.trusted.schemas import ItemRow\n\n"
    "import clauz3\n\n\n"
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("c2layer")
    trusted = base / "tools" / "demo" / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "schemas.py").write_text(SCHEMAS)
    (trusted / "effects.py").write_text(EFFECTS)
    (trusted / "contracts.py").write_text(CONTRACTS)
    return base


def prove(root: Path, name: str, body: str) -> tuple[list[dict[str, Any]], str]:
    """(obligations of the JSON result, text output) of one program."""
    path = root / f"{name}.py"
    path.write_text(HEADER + body)
    base = [sys.executable, "-m", "clauz3", "prove", "--no-cache", "--trusted-root",
            str(root / "tools" / "demo" / "trusted"), "--import-root", str(root)]
    js = subprocess.run([*base, "--json", str(path)], capture_output=True, text=True, timeout=120, check=False)
    assert js.returncode in (0, 1), js.stderr
    text = subprocess.run([*base, str(path)], capture_output=True, text=True, timeout=120, check=False)
    return json.loads(js.stdout)["entries"][0]["obligations"], text.stdout


def verdict(obligations: list[dict[str, Any]], description: str) -> dict[str, Any]:
    return next(o for o in obligations if o["description"] == description)


# ------------------------------------------------------------------------- 1. ConjunctionSpec


def test_conjunction_proves_and_fails_with_the_failing_members_why(root: Path) -> None:
    obs, _ = prove(root, "conj", (
        "@clauz3.guarantee(c.neither())\n"
        "@clauz3.guarantee(c.mixed(1))\n"
        "@clauz3.guarantee(c.mixed(2))\n"
        "def main() -> None:\n"
        "    f('a')\n"
        "    f('b')\n"
        "    g('x')\n"
    ))
    neither = verdict(obs, "guarantee c.neither()")
    assert neither["conclusion"] == "violated"
    assert neither["result"].startswith('call #1 f(x="a") at line 12 breaks')
    one = verdict(obs, "guarantee c.mixed(1)")
    assert one["conclusion"] == "violated"
    assert one["result"] == "2 matching calls (lines 12, 13) total 2, but the limit is <= 1"
    assert verdict(obs, "guarantee c.mixed(2)")["conclusion"] == "proved"

    obs, _ = prove(root, "conj_all", (
        "@clauz3.guarantee(c.mixed(5))\n"
        "def main() -> None:\n"
        "    g('x')\n"
        "    g('y')\n"
    ))
    ob = verdict(obs, "guarantee c.mixed(5)")
    assert ob["conclusion"] == "violated"
    assert ob["result"].startswith('call #2 g(x="y", where=<omitted: any value>) at line 11 breaks')


def test_conjunction_with_an_over_approximated_member(root: Path) -> None:
    # The count inside the loop depends on each row, so that member is an over-approximation:
    # the verdict must come from a real run (10 rows all taken), never a spurious model.
    obs, _ = prove(root, "conj_loop", (
        "@clauz3.guarantee(c.mixed(9))\n"
        "@clauz3.guarantee(c.mixed(10))\n"
        "def main() -> None:\n"
        "    for row in items():\n"
        "        if row.n > 0:\n"
        "            f(row.name)\n"
    ))
    assert verdict(obs, "guarantee c.mixed(10)")["conclusion"] == "proved"
    nine = verdict(obs, "guarantee c.mixed(9)")
    assert nine["conclusion"] == "violated"
    assert nine["result"] == "10 matching calls (line 13) total 10, but the limit is <= 9"


# ----------------------------------------------------------------- 2. str.find start and end


def test_search_model_matches_cpython() -> None:
    strings = ["", "a", "ab", "aba", "abab", "\U0001f600a\U0001f600"]
    subs = ["", "a", "b", "ab", "\U0001f600"]
    positions = range(-5, 6)
    extras = [(), *[(a,) for a in positions], *itertools.product(positions, positions)]
    wrong = []
    for s, p in itertools.product(strings, subs):
        for extra in extras:
            got = z3.simplify(_search([z3.StringVal(s), z3.StringVal(p), *[z3.IntVal(x) for x in extra]]))
            if not z3.is_int_value(got) or got.as_long() != s.find(p, *extra):
                wrong.append((s, p, extra, str(got)))
    assert wrong == []


def test_is_plain_path_in_a_precondition(root: Path) -> None:
    obs, _ = prove(root, "plain_ok", (
        "def main() -> None:\n"
        "    open_path('data/tasks.db')\n"
        "    open_path('./a/b/')\n"
    ))
    assert [o["conclusion"] for o in obs] == ["proved", "proved"]
    obs, _ = prove(root, "plain_bad", "def main() -> None:\n    open_path('../x')\n")
    assert [o["conclusion"] for o in obs] == ["violated"]
    assert 'gets path="../x" which breaks is_plain_path(path)' in obs[0]["result"]


def test_find_positions_are_exact_for_any_text(root: Path) -> None:
    obs, _ = prove(root, "find_sym", (
        "def main(p: str = '') -> None:\n"
        "    if p.find('/', 1) == 0:\n"
        "        raise ValueError('never: a search from 1 finds nothing before 1')\n"
        "    if p.find('a', -1) == 0:\n"
        "        raise ValueError('p == \"a\" reaches this')\n"
        "    assert 'abcabc'.find('c', 3) == 5 and 'abcabc'.find('c', 3, 5) == -1\n"
        "    assert 'abcabc'.index('b', -3) == 4 and 'abc'.find('', 3) == 3 and 'abc'.find('', 4) == -1\n"
    ))
    assert [(o["kind"], o["conclusion"]) for o in obs] == [
        ("exception", "proved"), ("exception", "violated"), ("assertion", "proved"), ("exception", "proved"),
        ("assertion", "proved")]
    assert obs[1]["counterexample"]["inputs"] == {"p": "a"}


# ------------------------------------------------------------------------- 3. type[T] results


def test_rows_of_a_type_parameter_result_are_symbolic_rows(root: Path) -> None:
    obs, text = prove(root, "rows", (
        "@clauz3.guarantee(c.f_only('z'))\n"
        "def main() -> None:\n"
        "    rows = read_rows(ItemRow, 't')\n"
        "    if len(rows) > 0:\n"
        "        print(rows[0].name)\n"
        "    for row in read_rows(ItemRow, 'u'):\n"
        "        if row.n > 3:\n"
        "            f(row.name)\n"
    ))
    assert [(o["kind"], o["conclusion"]) for o in obs] == [("exception", "proved"), ("guarantee", "violated")]
    assert 'read_rows(schema=ItemRow, table="u")' in text  # the class by name, not a quoted string
    obs, _ = prove(root, "rows_unchecked", "def main() -> None:\n    print(read_rows(ItemRow, 't')[0].n + 1)\n")
    assert [(o["kind"], o["conclusion"]) for o in obs] == [("exception", "violated")]
    assert "IndexError" in obs[0]["description"]


# ---------------------------------------------------------------------- 4. counterexample text


def test_symbolic_loop_path_is_summarised_and_call_numbers_match(root: Path) -> None:
    obs, text = prove(root, "cex_loop", (
        "@clauz3.guarantee(c.distinct_f())\n"
        "def main() -> None:\n"
        "    f('a')\n"
        "    for row in items():\n"
        "        if row.n > 0:\n"
        "            f(row.name)\n"
        "    g('x')\n"
    ))
    ob = verdict(obs, "guarantee c.distinct_f()")
    assert ob["conclusion"] == "violated"
    cex = ob["counterexample"]
    path = cex["path"]
    assert path[0]["condition"] == "for … in items() at line 11" and "iterations" in path[0]
    summary = path[1]
    assert (summary["line"], summary["condition"]) == (12, "row.n > 0")
    assert summary["evaluations"] == path[0]["iterations"] and summary["per_iteration"] is True
    assert len(path) == 2 and "iteration" not in summary
    assert "(iteration" not in text
    lines = [x for x in text.splitlines() if x.startswith("  path: ")]
    assert lines and f"line 12 row.n > 0: true in {summary['true_count']} of {summary['evaluations']}" in lines[0]
    # The witness pair is the earliest one, and every number the why names is in the effects line.
    shown = {t["index"]: t for t in cex["trace"]}
    numbers = [b["index"] for b in cex["breaking"]]
    assert len(numbers) == 2 and all(n in shown for n in numbers)
    assert ob["result"].startswith(f"calls #{numbers[0]} (line ") and f"#{numbers[1]} (line " in ob["result"]
    assert numbers[1] <= 4
    for b in cex["breaking"]:
        assert shown[b["index"]]["args"] == b["args"] and shown[b["index"]]["line"] == b["line"]
    assert "where=<omitted: any value>" in text and '{"len"' not in text


def test_path_is_capped_at_20_entries(root: Path) -> None:
    ifs = "".join(f"    if x > {k}:\n        print({k})\n" for k in range(25))
    obs, text = prove(root, "cex_cap", "def main(x: int = 0) -> None:\n" + ifs + "    assert x != 7\n")
    cex = obs[-1]["counterexample"]
    assert obs[-1]["conclusion"] == "violated"
    assert len(cex["path"]) == 20 and cex["path_more"] == 5
    assert text.count("; … and 5 more") == 1


def test_unrolled_loop_decisions_collapse_when_too_many(root: Path) -> None:
    obs, text = prove(root, "cex_unrolled", (
        "def main(x: int = 0) -> None:\n"
        "    for k in range(30):\n"
        "        if x > k:\n"
        "            print(k)\n"
        "    assert x != 3\n"
    ))
    cex = obs[-1]["counterexample"]
    assert obs[-1]["conclusion"] == "violated"
    assert [p["condition"] for p in cex["path"]][-1] == "x > k"
    assert cex["path"][-1]["true_count"] == 3 and cex["path"][-1]["evaluations"] == 30
    assert "line 9 for … in range(30): 30 iterations" in text
    assert "line 10 x > k: true in 3 of 30 evaluations" in text


def test_find_positions_agree_with_the_interpreter(root: Path) -> None:
    """The differential harness runs the proved program on the interpreter (INT-6 parity)."""
    path = root / "find_diff.py"
    path.write_text(HEADER + (
        "def main(q: str = 'x/y') -> None:\n"
        "    p = 'data/a/b.txt'\n"
        "    j = p.find('/', 5)\n"
        "    open_path(p[:j])\n"
        "    k = q.find('/', 1, 3)\n"
        "    if k > 0 and q.index('/', 0, k + 1) == k:\n"
        "        print(q[:k], p.index('a', -7, -3))\n"
    ))
    proc = subprocess.run([sys.executable, "-m", "clauz3.difftest", "--trusted-root",
                           str(root / "tools" / "demo" / "trusted"), "--import-root", str(root), "--runs", "8",
                           str(path)], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 programs, 8 runs, 0 findings, 0 incomplete" in proc.stdout
