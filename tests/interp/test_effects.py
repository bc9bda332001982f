"""INT-4 / EFF-6: the effect call protocol with real decorated trusted functions."""

from __future__ import annotations

import io
import json
import os
import stat
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _irkit import build, condition, effect

from clauz3.interp import execute
from clauz3.language import ir
from clauz3.vocabulary.decorators import ensures, requires, trusted

CALLS: list[tuple[Any, ...]] = []


@pytest.fixture(autouse=True)
def _isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    CALLS.clear()
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "home"))


@trusted
@requires(lambda addr, msg: "@" in addr)
def send_email(addr: str, msg: str) -> None:
    CALLS.append(("send_email", addr, msg))


@trusted
def note(text: str, *, level: int = 3, urgent: bool = False) -> None:
    CALLS.append(("note", text, level, urgent))


KEPT: list[list[int]] = []


@trusted
def keep(xs: list[int]) -> list[int]:
    xs.append(99)  # mutating the argument must not reach the program
    out = [1, 2]
    KEPT.append(out)
    return out


BAD_RESULTS: dict[str, Any] = {}


@trusted
def count_things(kind: str) -> int:
    CALLS.append(("count_things", kind))
    return BAD_RESULTS.get(kind, 5)


@trusted
@ensures(lambda result: result >= 0)
def balance(account: str) -> int:
    CALLS.append(("balance", account))
    return -1 if account == "broken" else 10


@trusted
def explode(x: str) -> None:
    CALLS.append(("explode", x))
    raise ValueError(f"cannot handle {x}")


SEND = effect("t.send_email", [("addr", ir.STR), ("msg", ir.STR)], requires=(condition('"@" in addr'),))
NOTE = effect("t.note", [ir.Param("text", ir.STR), ir.Param("level", ir.INT, "keyword_only", ir.Const(3, ir.INT, 1, 0)),
                         ir.Param("urgent", ir.BOOL, "keyword_only", ir.Const(False, ir.BOOL, 1, 0))])
KEEP = effect("t.keep", [("xs", ir.TList(ir.INT))], ir.TList(ir.INT))
COUNT = effect("t.count_things", [("kind", ir.STR)], ir.INT)
BALANCE = effect("t.balance", [("account", ir.STR)], ir.INT, ensures=(condition("result >= 0"),))
EXPLODE = effect("t.explode", [("x", ir.STR)])
EFFECTS = [SEND, NOTE, KEEP, COUNT, BALANCE, EXPLODE]
LAYER = {"t.send_email": send_email, "t.note": note, "t.keep": keep, "t.count_things": count_things,
         "t.balance": balance, "t.explode": explode}


def run(source: str, **kwargs: Any) -> Any:
    program = build(textwrap.dedent(source), effects=EFFECTS)
    return execute(program, LAYER, stdout=io.StringIO(), **kwargs)


def test_omitted_arguments_record_the_received_default() -> None:
    result = run("""
    def main():
        note("a")
        note("b", level=7)
    """)
    assert result.outcome == "completed"
    assert CALLS == [("note", "a", 3, False), ("note", "b", 7, False)]
    assert [r.arguments for r in result.trace] == [
        {"text": "a", "level": 3, "urgent": False}, {"text": "b", "level": 7, "urgent": False}]
    assert [r.index for r in result.trace] == [1, 2]
    assert [r.line for r in result.trace] == [3, 4]


def test_arguments_and_results_are_deep_copied() -> None:
    result = run("""
    def main():
        xs = [1]
        ys = keep(xs)
        print(xs, ys)
        return ys
    """)
    assert result.outcome == "completed", result.error
    KEPT[-1].append(1000)  # the trusted side keeps and mutates its result later
    assert result.return_value == [1, 2]
    assert result.trace[0].arguments == {"xs": [1]}


@pytest.mark.parametrize("bad", ["5", True, 5.0, None])
def test_wrong_result_type_is_trusted_contract_violation(bad: Any) -> None:
    BAD_RESULTS["x"] = bad
    result = run("""
    def main():
        n = count_things("x")
        send_email("bob@example.com", "later")
    """)
    assert result.outcome == "trusted_contract_violation"
    assert "main.py:3" in (result.error or "")
    assert "annotation is int" in (result.error or "")
    assert CALLS == [("count_things", "x")]  # no later call happened
    assert len(result.trace) == 1


def test_broken_own_ensures_is_trusted_contract_violation() -> None:
    result = run("""
    def main():
        b = balance("broken")
        send_email("bob@example.com", "later")
    """)
    assert result.outcome == "trusted_contract_violation"
    assert CALLS == [("balance", "broken")]
    assert "postcondition" in (result.error or "")


def test_ensures_checked_by_interpreter_even_without_decorator() -> None:
    program = build("def main():\n    return count_things('k')\n",
                    effects=[effect("t.count_things", [("kind", ir.STR)], ir.INT,
                                    ensures=(condition("result > 100"),))])
    result = execute(program, LAYER, stdout=io.StringIO())
    assert result.outcome == "trusted_contract_violation"
    assert "result > 100" in (result.error or "")


def test_false_precondition_aborts_before_the_call(tmp_path: Path) -> None:
    result = run("""
    def main():
        send_email("bob@example.com", "hi")
        send_email("bob", "x")
    """)
    assert result.outcome == "soundness_violation"
    assert result.violation == "precondition"
    assert CALLS == [("send_email", "bob@example.com", "hi")]
    assert len(result.trace) == 1
    assert result.error is not None and result.error.startswith("clauz3 stopped this run: send_email(")
    assert result.report_path is not None and os.path.exists(result.report_path)


def test_trusted_function_raising_is_runtime_error() -> None:
    result = run("""
    def main():
        explode("it")
        note("never")
    """)
    assert result.outcome == "runtime_error"
    assert result.error == "main.py:3: trusted function explode raised ValueError: cannot handle it"
    assert CALLS == [("explode", "it")]


def test_missing_effect_is_runtime_error() -> None:
    program = build("def main():\n    note('x')\n", effects=EFFECTS)
    result = execute(program, {}, stdout=io.StringIO())
    assert result.outcome == "runtime_error"
    assert "not in the loaded layer" in (result.error or "")


def test_report_file_is_private_and_has_no_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_TOKEN_FOR_TEST", "s3cr3t-value")
    result = run("""
    def main():
        send_email("nobody", "x")
    """)
    assert result.report_path is not None
    path = Path(result.report_path)
    assert path.parent == tmp_path / "home" / "logs"
    assert path.name.startswith("soundness-") and path.name.endswith(f"-{os.getpid()}.json")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert "s3cr3t-value" not in text
    doc = json.loads(text)
    assert doc["layer_sha256"] == "0" * 64 and len(doc["ir_sha256"]) == 64 and doc["engine"]
    assert doc["program"]["target"] == "main"


def test_solver_model_mismatch_is_a_soundness_violation() -> None:
    model = ir.Function("model_len", (ir.Param("s", ir.STR),), (ir.Return(ir.BuiltinCall(
        "len", (ir.Name("s", ir.STR, 1, 0),), (), ir.INT, 1, 0), 1, 0),), ir.INT, True, "trusted", "m", "m.py", 1)
    call = ir.SolverCall("pkg.real_len", "model_len", (ir.Const("abc", ir.STR, 2, 0),), ir.INT, 2, 0)
    base = build("def main():\n    return 0\n")
    main = ir.Function("main", (), (ir.Return(call, 2, 0),), ir.INT, True, "entry", "__entry__", "main.py", 1)
    import dataclasses

    program = dataclasses.replace(base, functions={"main": main, "model_len": model})
    good = execute(program, {}, stdout=io.StringIO(), solver_functions={"pkg.real_len": len})
    assert good.outcome == "completed" and good.return_value == 3
    bad = execute(program, {}, stdout=io.StringIO(), solver_functions={"pkg.real_len": lambda s: 4})
    assert bad.outcome == "soundness_violation" and bad.violation == "solver_model"
