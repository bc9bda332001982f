"""QB-24: every construct outside the checked subset is refused before proving, table-driven.

Each row is (construct, program body, expected code, line and column relative to the body).
Every refusal must carry file:line:col, the code, a message naming the construct, and a hint.
"""

from __future__ import annotations

from typing import Any

import pytest

HEADER_LINES = 4  # lines of conftest.HEADER

MAIN = "def main() -> None:\n"

TABLE: list[tuple[str, str, str, int, int]] = [
    # §3.3 statements
    ("while", MAIN + "    while True:\n        pass\n", "unsupported-statement", 2, 5),
    ("with", MAIN + "    with x:\n        pass\n", "unsupported-statement", 2, 5),
    ("try", MAIN + "    try:\n        pass\n    except Exception:\n        pass\n", "unsupported-statement", 2, 5),
    ("match", MAIN + "    match 1:\n        case 1:\n            pass\n", "unsupported-statement", 2, 5),
    ("del", MAIN + "    x = 1\n    del x\n", "unsupported-statement", 3, 5),
    ("global", MAIN + "    global g\n", "unsupported-statement", 2, 5),
    ("nonlocal", "def main() -> None:\n    def inner() -> None:\n        nonlocal q\n", "unsupported-statement", 2, 5),
    ("import in function", MAIN + "    import math\n", "unsupported-statement", 2, 5),
    ("nested def", MAIN + "    def inner() -> None:\n        pass\n", "unsupported-statement", 2, 5),
    ("nested class", MAIN + "    class Inner:\n        pass\n", "unsupported-statement", 2, 5),
    ("async def", "async def main() -> None:\n    pass\n", "unsupported-statement", 1, 1),
    ("yield", MAIN + "    yield 1\n", "unsupported-expression", 2, 5),
    ("for-else", MAIN + "    for i in [1]:\n        pass\n    else:\n        pass\n", "unsupported-statement", 2, 5),
    ("slice assignment", MAIN + "    xs = [1, 2]\n    xs[0:1] = [3]\n", "unsupported-statement", 3, 5),
    ("attribute assignment", MAIN + "    xs = [1]\n    xs.y = 2\n", "unsupported-statement", 3, 5),
    ("bare annotation", MAIN + "    x: int\n", "unsupported-statement", 2, 5),
    ("return in loop", "def f() -> int:\n    for i in [1]:\n        return i\n    return 0\n\n\n" + MAIN
     + "    f()\n", "unsupported-statement", 3, 9),
    # EXP-2 expressions
    ("lambda", MAIN + "    f = lambda a: a\n", "unsupported-expression", 2, 9),
    ("generator", MAIN + "    g = (i for i in [1])\n", "unsupported-expression", 2, 9),
    ("set comprehension", MAIN + "    s = {i for i in [1]}\n", "unsupported-expression", 2, 9),
    ("dict comprehension", MAIN + "    d = {i: i for i in [1]}\n", "unsupported-expression", 2, 9),
    ("walrus", MAIN + "    if (n := 1):\n        pass\n", "unsupported-expression", 2, 9),
    ("starred", MAIN + "    xs = [*[1]]\n", "unsupported-expression", 2, 11),
    ("bytes", MAIN + "    b = b'x'\n", "unsupported-expression", 2, 9),
    ("is not None-less", MAIN + "    x = 1\n    y = x is 2\n", "unsupported-expression", 3, 9),
    ("matmul", MAIN + "    x = 1 @ 2\n", "unsupported-expression", 2, 9),
    ("f-string format spec", MAIN + "    x = f'{1:.2}'\n", "unsupported-expression", 2, 9),
    ("percent formatting", MAIN + "    x = '%s' % 'a'\n", "unsupported-expression", 2, 9),
    ("function as value", MAIN + "    f = send_email\n", "unsupported-expression", 2, 9),
    ("dunder attribute", MAIN + "    x = 'a'.__class__\n", "unsupported-expression", 2, 9),
    ("contract helper in body", MAIN + "    c.at_most(1)\n", "unsupported-expression", 2, 5),
    # calls outside the tables
    ("open", MAIN + "    open('x')\n", "unsupported-call", 2, 5),
    ("eval", MAIN + "    eval('1')\n", "unsupported-call", 2, 5),
    ("exec", MAIN + "    exec('1')\n", "unsupported-call", 2, 5),
    ("getattr", MAIN + "    getattr('a', 'b')\n", "unsupported-call", 2, 5),
    ("unknown method", MAIN + "    'a'.expandtabs()\n", "unsupported-call", 2, 5),
    # module level and imports (§3.2)
    ("module-level call", MAIN + "    pass\n\n\nprint('x')\n", "module-level-code", 5, 1),
    ("main guard", MAIN + "    pass\n\n\nif __name__ == '__main__':\n    main()\n", "module-level-code", 5, 1),
    ("module-level loop", "for i in [1]:\n    pass\n\n\n" + MAIN + "    pass\n", "module-level-code", 1, 1),
    ("import os", "import os\n\n\n" + MAIN + "    pass\n", "import-not-allowed", 1, 1),
    ("wildcard import", "from math import *\n\n\n" + MAIN + "    pass\n", "import-not-allowed", 1, 1),
    ("relative import", "from . import x\n\n\n" + MAIN + "    pass\n", "import-not-allowed", 1, 1),
    # decorators (GRM-4)
    ("trusted decorator", "@clauz3.trusted\n" + MAIN + "    pass\n", "decorator-not-allowed", 1, 2),
    ("requires decorator", "@clauz3.requires(lambda: True)\n" + MAIN + "    pass\n", "decorator-not-allowed", 1, 2),
]


@pytest.mark.parametrize("construct,body,code,line,col", TABLE, ids=[row[0] for row in TABLE])
def test_construct_is_refused_with_location_and_hint(refused: Any, construct: str, body: str, code: str,
                                                     line: int, col: int) -> None:
    exc = refused(body)
    errors = [d for d in exc.errors if d.code == code]
    assert errors, f"{construct}: expected {code}, got {[d.code for d in exc.errors]}"
    where = {(d.line - HEADER_LINES, d.col) for d in errors}
    assert (line, col) in where, f"{construct}: expected {line}:{col}, got {sorted(where)}"
    for d in exc.errors:
        rendered = d.render()
        assert rendered.startswith("error: ") and f":{d.line}:{d.col}: {d.code}: " in rendered
        assert d.hint, f"{construct}: refusal without a hint: {rendered}"
    assert not exc.target_missing_only  # a refusal (exit 2), not the no-target verdict
