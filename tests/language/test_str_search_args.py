"""`str.find` / `str.index` take optional start and end positions (01 §3.4, exact)."""

from __future__ import annotations

from typing import Any

from clauz3.language import ir


def _methods(node: Any) -> list[ir.MethodCall]:
    out: list[ir.MethodCall] = []
    if isinstance(node, ir.MethodCall):
        out.append(node)
    if isinstance(node, tuple):
        for x in node:
            out.extend(_methods(x))
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            out.extend(_methods(getattr(node, name)))
    return out


def test_find_and_index_accept_start_and_end(check: Any) -> None:
    prog = check(
        "def main(p: str = 'a/b') -> None:\n"
        "    print(p.find('/'), p.find('/', 1), p.find('/', -2, 3), p.index('a', True))\n"
    )
    calls = _methods(prog.functions["main"].body)
    assert [(m.method, len(m.args), m.type) for m in calls] == [
        ("find", 1, ir.INT), ("find", 2, ir.INT), ("find", 3, ir.INT), ("index", 2, ir.INT)]


def test_bad_positions_are_refused(refused: Any) -> None:
    err = refused("def main(p: str = 'a') -> None:\n    print(p.find('/', 'x'))\n")
    assert "type-error" in str(err) and "start and end positions must be int" in str(err)
    err = refused("def main(p: str = 'a') -> None:\n    print(p.index('/', 1, 2, 3))\n")
    assert "type-error" in str(err) and "takes 1–3 arguments, got 4" in str(err)
    err = refused("def main(p: str = 'a') -> None:\n    print(p.startswith('a', 1))\n")
    assert "takes 1 arguments, got 2" in str(err)


def test_row_class_argument_is_a_rowclass_constant(check: Any) -> None:
    # The prover types `type[T]` results from this constant (EFF-4); it must not be a plain str.
    prog = check("def main() -> None:\n    rows = fetch(UserRow, 'x')\n    print(len(rows))\n")
    call = prog.functions["main"].body[0].value
    schema = dict(call.args)["schema"]
    assert isinstance(schema, ir.Const) and schema.kind == "rowclass"
    assert isinstance(call.type, ir.TList) and isinstance(call.type.elem, ir.TRow)
