"""Engine id, the builtin model table, the JSON record, and the obligation-dropping test hook."""

from __future__ import annotations

import re

import pytest
from prover_irb import SEND, at_most, c, call, program, run, stmt

from clauz3.prover.builtins import MODELS
from clauz3.prover.engine import PROVER_SEMANTICS_ID, engine_id
from clauz3.prover.result import to_json


def test_engine_id_shape() -> None:
    assert re.fullmatch(r"[0-9][^+]*\+clauz3-prover-4\+z3-[0-9.]+\+py3\.\d+", engine_id())
    assert PROVER_SEMANTICS_ID == "clauz3-prover-4"


def test_model_table_lists_every_builtin_of_the_spec() -> None:
    for name in ("len", "abs", "bool", "float", "ord", "chr", "min", "max", "sum", "int", "str", "list", "set",
                 "dict", "tuple", "range", "enumerate", "print", "str.startswith", "str.endswith", "str.find",
                 "str.index", "str.join", "str.count", "str.split", "str.strip", "str.lstrip", "str.rstrip",
                 "str.lower", "str.upper", "str.replace", "list.index", "list.count", "dict.get", "dict.keys",
                 "dict.values", "dict.items", "list.append", "list.extend", "set.add", "math.isclose",
                 "math.isinf", "math.isnan", "math.floor", "math.ceil", "math.trunc", "math.inf", "math.pi"):
        assert name in MODELS, name
    assert {m.precision for m in MODELS.values()} <= {"exact", "abstract", "none"}


def _two_sends():  # type: ignore[no-untyped-def]
    body = [stmt(call(SEND, c("a@x"), c("m"), line=2), line=2), stmt(call(SEND, c("b@x"), c("m"), line=3), line=3)]
    return program(body, [SEND], [at_most(1)])


def test_json_record_fields() -> None:
    doc = to_json(run(_two_sends()))
    assert doc["status"] == "not_proved"
    ob = doc["obligations"][-1]
    assert set(ob) >= {"index", "kind", "description", "expression", "predicate", "call", "effect", "module",
                       "line", "column", "conclusion", "reason", "class", "source_kind", "result",
                       "counterexample", "elapsed_ms"}
    assert ob["description"] == "guarantee emails.at_most(1)" and ob["source_kind"] == "submitted"
    cex = ob["counterexample"]
    assert [t["line"] for t in cex["trace"]] == [2, 3] and cex["why"] == ob["result"]


def test_the_old_drop_switch_changes_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """00 DEC-13: the test-only hook is gone; these variables are ignored like any other."""
    monkeypatch.setenv("CLAUZ3_TEST_DROP_GUARANTEE", "at_most")
    monkeypatch.setenv("CLAUZ3_TESTING", "1")
    assert run(_two_sends()).obligations[-1].conclusion == "violated"
