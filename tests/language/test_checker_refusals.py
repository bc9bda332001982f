"""Refusals: codes, positions, hints, and that one run reports them all (01 §3, §4.4)."""

from __future__ import annotations

from typing import Any

import pytest

HEADER_LINES = 4  # lines of conftest.HEADER


def codes(exc: Any) -> list[str]:
    return [d.code for d in exc.errors]


def test_acceptance_refusals_all_reported_in_one_run(refused: Any) -> None:
    exc = refused(
        "def main() -> None:\n"            # 1
        "    while True:\n"                 # 2
        "        pass\n"
        "    try:\n"                        # 4
        "        pass\n"
        "    except Exception:\n"
        "        pass\n"
        "    with open('x') as f:\n"        # 8
        "        pass\n"
        "    y = 1\n"
        "    del y\n"                       # 11
        "    global z\n"                    # 12
        "    g = lambda a: a\n"             # 13
        "    q = [i for i in (j for j in [1])]\n"  # 14
        "    open('f')\n"                   # 15
        "    getattr(main, 'x')\n"          # 16
        "    w = 'x'.__class__\n"           # 17
        "    eval('1')\n"                   # 18
        "    f = send_email\n"              # 19
        "print('hi')\n"                     # 20
        "if __name__ == '__main__':\n"     # 21
        "    main()\n"
    )
    h = HEADER_LINES
    found = {(d.line - h, d.code) for d in exc.errors}
    for line, code in [(2, "unsupported-statement"), (4, "unsupported-statement"), (8, "unsupported-statement"),
                       (11, "unsupported-statement"), (12, "unsupported-statement"),
                       (13, "unsupported-expression"), (14, "unsupported-expression"), (15, "unsupported-call"),
                       (16, "unsupported-call"), (17, "unsupported-expression"), (18, "unsupported-call"),
                       (19, "unsupported-expression"), (20, "module-level-code"), (21, "module-level-code")]:
        assert (line, code) in found, (line, code, sorted(found))
    assert len(exc.render().splitlines()) == len(exc.errors) <= 20
    first = exc.errors[0].render()
    assert first.startswith("error: ") and f":{h + 2}:5: unsupported-statement: `while` loop (hint: " in first
    guard = next(d for d in exc.errors if d.line == h + 21)
    assert guard.hint == "remove it; clauz3 calls the target itself"
    assert not exc.target_missing_only


def test_at_most_twenty_shown(refused: Any) -> None:
    exc = refused("def main() -> None:\n" + "    while True:\n        pass\n" * 25)
    lines = exc.render().splitlines()
    assert len(exc.errors) == 25 and len(lines) == 21 and lines[-1] == "… 5 more problems"


@pytest.mark.parametrize("arg, code", [
    ("c.at_most(limit)", "guarantee-grammar"),
    ("c.at_most", "guarantee-grammar"),
    ("'only bob'", "guarantee-grammar"),
    ("c.at_most(1 + 1)", "guarantee-grammar"),
    ("c.at_most(f'{1}')", "guarantee-grammar"),
    ("local_helper()", "guarantee-grammar"),
    ("c.nothing_here(1)", "unknown-contract"),
    ("c.at_most('3')", "contract-error"),
    ("c.at_most(1, 2)", "contract-error"),
    ("c.only_write([clauz3.FilePath('../x')])", "contract-error"),
    ("c.typo()", "unknown-effect"),
    ("c.bad_field()", "contract-error"),
    ("c.boom()", "contract-error"),
])
def test_guarantee_grammar(refused: Any, arg: str, code: str) -> None:
    exc = refused(f"limit = 1\ndef local_helper():\n    pass\n@clauz3.guarantee({arg})\ndef main() -> None:\n    pass\n")
    assert codes(exc) == [code]
    d = exc.errors[0]
    assert d.line == HEADER_LINES + 4 and d.col > 1


def test_contract_error_names_parameter(refused: Any) -> None:
    exc = refused("@clauz3.guarantee(c.at_most('3'))\ndef main() -> None:\n    pass\n")
    assert exc.errors[0].message == "argument `count` of `lab.at_most` must be int, got str"
    exc = refused("@clauz3.guarantee(c.boom())\ndef main() -> None:\n    pass\n")
    assert "RuntimeError: nope" in exc.errors[0].message and "contracts.py:" in exc.errors[0].message
    exc = refused("@clauz3.guarantee(c.typo())\ndef main() -> None:\n    pass\n")
    assert "not in the program" in exc.errors[0].message


def test_guarantee_resolved_not_spelled(refused: Any, check: Any) -> None:
    exc = refused("import json as clauz3\nfrom tools.lab.trusted import contracts as c\n"
                  "@clauz3.guarantee(c.at_most(1))\ndef main() -> None:\n    pass\n", header=False)
    assert "import-not-allowed" in codes(exc) or "decorator-not-allowed" in codes(exc)
    exc = refused("import math as clauz3\nfrom tools.lab.trusted import contracts as c\n"
                  "@clauz3.guarantee(c.at_most(1))\ndef main() -> None:\n    pass\n", header=False, name="m.py")
    assert codes(exc) == ["decorator-not-allowed"]


@pytest.mark.parametrize("deco, hint", [
    ("clauz3.trusted", "only trusted libraries may use this"),
    ("clauz3.requires(lambda: True)", "only trusted libraries may use this"),
    ("clauz3.mock", "only trusted libraries may use this"),
])
def test_trusted_only_decorators(refused: Any, deco: str, hint: str) -> None:
    exc = refused(f"@{deco}\ndef main() -> None:\n    pass\n")
    assert codes(exc) == ["decorator-not-allowed"] and exc.errors[0].hint == hint


def test_import_rules(refused: Any, tmp_path: Any) -> None:
    exc = refused("import os\nfrom tools.lab.trusted.effects import *\nfrom . import x\nimport clauz3.paths\n"
                  "from typing import Final\ndef main() -> None:\n    import math\n", header=False)
    assert codes(exc) == ["import-not-allowed"] * 5 + ["unsupported-statement"]
    assert exc.errors[-1].hint == "move the import to module level"
    (tmp_path / "math.py").write_text("")
    exc = refused("import math\ndef main() -> None:\n    pass\n", header=False)
    assert codes(exc) == ["import-shadowed"]


def test_target_rules(refused: Any) -> None:
    exc = refused("def other() -> None:\n    pass\n")
    assert codes(exc) == ["target-missing"] and exc.target_missing_only
    exc = refused("def main() -> None:\n    pass\nmain = 3\n")
    assert codes(exc) == ["target-ambiguous"]
    exc = refused("def main(*args: int) -> None:\n    pass\n")
    assert codes(exc) == ["target-parameters"]
    exc = refused("def main(n: int = len('ab')) -> None:\n    pass\n")
    assert codes(exc) == ["target-parameters"]  # a default must be a literal; none at all is proved (MOD-5)


@pytest.mark.parametrize("body, code", [
    ("    total = 0\n    for r in users('t'):\n        total += r.age\n", "loop-restriction"),
    ("    for r in users('t'):\n        break\n", "loop-restriction"),
    ("    rows = users('t')\n    names = [r.name for r in rows]\n", "loop-restriction"),
    ("    n = balance('a')\n    for i in range(n):\n        pass\n", "loop-restriction"),
    ("    rows = users('t')\n    rows.append(rows[0])\n", "mutation-not-owned"),
    ("    xs = [1]\n    ys = xs\n    ys.append(2)\n", "mutation-not-owned"),
    ("    if balance('a') > 1:\n        x = 1\n    print(x)\n", "unbound-name"),
    ("    if balance('a') > 1:\n        x = 1\n    else:\n        x = 'a'\n    print(x)\n", "type-error"),
    ("    x = 1 + 'a'\n", "type-error"),
    ("    send_email(1, 'x')\n", "type-error"),
    ("    maybe('k')\n", "unsupported-type"),
    ("    print(bad_helper('x'))\n", "unsupported-call"),
    ("    x = 'a' % 3\n", "unsupported-expression"),
    ("    x = b'a'\n", "unsupported-expression"),
    ("    x = 1 is 1\n", "unsupported-expression"),
    ("    x = f'{1:.2}'\n", "unsupported-expression"),
    ("    c.at_most(1)\n", "unsupported-expression"),
    ("    x = rec(1)\n", "recursion"),
    ("    x = half(1)\n", "implicit-none"),
    ("    for i in range(2000):\n        pass\n", "limit-exceeded"),
])
def test_body_refusals(refused: Any, body: str, code: str) -> None:
    helpers = ("def rec(n: int) -> int:\n    return rec(n)\n"
               "def half(n: int) -> int:\n    if n > 0:\n        return 1\n")
    exc = refused(helpers + "def main() -> None:\n" + body)
    assert code in codes(exc), exc.render()


def test_accumulator_hint(refused: Any) -> None:
    exc = refused("def main() -> None:\n    total = 0\n    for r in users('t'):\n        total += r.age\n")
    assert exc.errors[0].hint == "count with a guarantee, or iterate a literal"
    exc = refused("def main() -> None:\n    print(bad_helper('x'))\n")
    assert "effects.py:" in exc.errors[0].message and "`while` loop" in exc.errors[0].message


def test_bad_source(lab_layer: Any, tmp_path: Any) -> None:
    from clauz3.language import Refused, check_source

    for data, code in [(b"\x00", "bad-source"), (b"\xff\xfe", "bad-source"), (b"def (:\n", "syntax-error"),
                       (b"x = 1\n" * 10_001, "bad-source")]:
        with pytest.raises(Refused) as info:
            check_source(data, "p.py", lab_layer)
        assert info.value.codes == [code]
