"""The table of operations (issue 18): complete, implemented by both sides, and both sides agree on it.

* Every builtin, method and operator the checker accepts has an entry in
  ``clauz3.language.operations``; every entry is implemented by the interpreter and the prover.
* Per operation, the interpreter and the prover's encoding are evaluated at the same concrete
  values — edge values first (0, -0.0, NaN, ±inf, 2**53 ± 1, huge ints, empty and one-element
  collections, repeated set elements, overwritten dict keys, None, bool as int, non-ASCII text) —
  on the fold path (literals) and the symbolic path (parameters pinned to the values), and must
  agree: the encoding allows the interpreter's result, and where the interpreter raises, some
  exception obligation can fail. An exception the table does not list fails too.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from opdiff import EDGES, OpLab, Outcome, Tally, edge_cases  # noqa: E402

from clauz3.language.operations import OPERATIONS  # noqa: E402

# Soundness bugs the differential test finds on today's code, each a family being fixed in the
# prover (prover/ops.py, prover/builtins.py) in parallel; each has a minimal program in
# tests/soundness/found_by_generator/. Remove a family here when its fix lands: the test then
# holds the fix. Anything not matched here fails the test.
KNOWN: dict[str, Any] = {
}


@pytest.fixture(scope="module")
def lab() -> OpLab:
    return OpLab()


def known(o: Outcome) -> str | None:
    return next((name for name, match in KNOWN.items() if match(o)), None)


def check_cases(lab: OpLab, key: str, cases: Iterator[tuple[tuple[str, ...], tuple[Any, ...]]]) -> Tally:
    op = OPERATIONS[key]
    tally = Tally()
    for sig, values in cases:
        for path in ("fold", "symbolic"):
            tally.add(lab.run(op, sig, values, path))
    return tally


def assert_agree(key: str, tally: Tally) -> None:
    unknown = [o for o in tally.bad if known(o) is None]
    for o in tally.bad:
        print(("known " + str(known(o)) + ": " if known(o) else "") + o.line()[:400])
    assert not unknown, "\n".join(o.line()[:600] + "\n" + o.source for o in unknown[:5])
    if OPERATIONS[key].refused:
        assert not tally.by_op.get(key), f"{key}: the table says the checker refuses it, but it ran"
        return
    assert tally.by_op.get(key, 0) > 0, f"{key}: no case where both sides ran ({tally.by_status})"


# ------------------------------------------------------------------------------ the table is complete


def test_every_operation_the_checker_accepts_has_an_entry() -> None:
    from clauz3.language import builtins_table as bt
    from clauz3.language import expressions as ex

    accepted = set(bt.BUILTINS) | {f"{r}.{m}" for r, m in bt.METHODS}
    accepted |= {op for op in ex.BINOPS.values() if op != "@"}
    accepted |= set(ex.CMPOPS.values()) | {f"unary {op}" for op in ex.UNOPS.values()}
    missing = sorted(accepted - set(OPERATIONS))
    assert not missing, f"accepted by the checker but not in the operation table: {missing}"


def test_every_entry_is_implemented_by_the_interpreter_and_the_prover() -> None:
    from clauz3.interp import builtins as ib
    from clauz3.interp import evaluate as ie
    from clauz3.prover import builtins as pb

    for key, op in OPERATIONS.items():
        if op.form in ("builtin", "method"):
            if key.startswith("tuple."):  # both sides run tuples through the list models
                assert f"list.{key.split('.')[1]}" in ib.IMPLEMENTATIONS and f"list.{key.split('.')[1]}" in pb.MODELS
                continue
            assert key in ib.IMPLEMENTATIONS, f"{key}: no interpreter implementation"
            assert key in pb.MODELS, f"{key}: no prover model"
        elif op.form == "binop":
            assert key in ie.BINOPS, f"{key}: no interpreter operator"
        elif op.form == "compare":
            assert key in ie.COMPARE, f"{key}: no interpreter comparison"
        # unary, boolean and statement-level operations: the differential test below runs each on both
        # sides (a case where both ran is required per entry)


def test_every_entry_lists_argument_kinds_the_tests_can_build() -> None:
    for key, op in OPERATIONS.items():
        assert op.domain, key
        for sig in op.domain:
            for kind in sig:
                assert kind in EDGES, f"{key}: no edge values for kind {kind!r}"


def test_every_listed_exception_has_an_obligation_in_the_prover() -> None:
    """A raise the table lists is ruled out by an `exception` obligation of that class somewhere in prover/."""
    src = "\n".join(p.read_text() for p in (HERE.parents[1] / "src" / "clauz3" / "prover").glob("*.py"))
    for key, op in OPERATIONS.items():
        for r in op.raises:
            assert f'exception("{r.exception}"' in src or "exception(type(exc).__name__" in src, \
                f"{key}: no prover obligation for {r.exception}"


# ------------------------------------------------------------------------------ both sides agree


@pytest.mark.parametrize("key", sorted(OPERATIONS))
def test_operation_agrees_on_edge_values(lab: OpLab, key: str) -> None:
    assert_agree(key, check_cases(lab, key, iter(edge_cases(OPERATIONS[key], cap=2))))


@pytest.mark.soak
@pytest.mark.timeout(3600)
def test_operations_agree_on_many_edge_combinations(lab: OpLab) -> None:
    for key in sorted(OPERATIONS):
        assert_agree(key, check_cases(lab, key, iter(edge_cases(OPERATIONS[key], cap=40, seed=1))))


def _strategy(kind: str) -> Any:
    from hypothesis import strategies as st
    from opdiff import DictLit, SetLit

    edges = st.sampled_from(EDGES[kind])
    # random ints stay small (edges give the huge ones): `1 << n` for a random n up to 2**70 would
    # make the interpreter build ints of gigabytes before its MemoryError
    ints = st.integers(-(10**6), 10**6) | st.integers(-5, 5)
    scalar = {
        "int": ints, "bool": st.booleans(), "float": st.floats(allow_nan=True, allow_infinity=True),
        "str": st.text(alphabet="ab é😀İß0129 .-", max_size=6), "None": st.none(),
        "int | None": st.none() | ints, "int!": st.integers(-3, 6), "nat!": st.integers(0, 8),
    }
    if kind in scalar:
        return edges | scalar[kind]
    elem = {"list[int]": ints, "list[str]": scalar["str"], "list[float]": scalar["float"],
            "tuple[int, ...]": ints, "tuple[int, int]": ints, "set[int]": st.integers(-3, 3), "set[str]": st.sampled_from("abé")}
    if kind.startswith("list"):
        return edges | st.lists(elem[kind], max_size=4).map(tuple)
    if kind == "tuple[int, int]":
        return edges | st.tuples(ints, ints)
    if kind.startswith("tuple"):
        return edges | st.lists(elem[kind], max_size=4).map(tuple)
    if kind.startswith("set"):
        return edges | st.lists(elem[kind], max_size=5).map(lambda xs: SetLit(tuple(xs)))
    return edges | st.lists(st.tuples(st.sampled_from("abé"), st.integers(-3, 3)), max_size=5).map(
        lambda ps: DictLit(tuple(ps)))


def _hypothesis_check(lab: OpLab, key: str, examples: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    op = OPERATIONS[key]
    tally = Tally()

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data: Any) -> None:
        sig = data.draw(st.sampled_from(op.domain))
        values = tuple(data.draw(_strategy(k)) for k in sig)
        for path in ("fold", "symbolic"):
            o = lab.run(op, sig, values, path)
            tally.add(o)
            assert o.status not in ("violation", "table", "crash") or known(o), o.line()[:600] + "\n" + o.source

    one()


@pytest.mark.parametrize("key", ["+", "*", "//", "%", "/", "**", "<", "==", "in", "round", "int", "float", "min",
                                 "sum", "str.find", "subscript", "slice", "dict.get"])
def test_operation_agrees_on_random_values(lab: OpLab, key: str) -> None:
    _hypothesis_check(lab, key, 3)


@pytest.mark.soak
@pytest.mark.timeout(3600)
def test_operations_agree_on_many_random_values(lab: OpLab) -> None:
    for key in sorted(OPERATIONS):
        _hypothesis_check(lab, key, 60)
