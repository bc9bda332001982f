"""The interpreter's value semantics (docs/semantics.md, issue 10 family 1-3), below the checker.

The checker refuses most of these programs (MUT-1), so they are built straight into IR by the test
translator: whatever the checker lets through, the interpreter must still give every name an
independent value, as the prover's model does.
"""

from __future__ import annotations

import io

import pytest
from _irkit import build

from clauz3.interp import execute

CASES = {
    "bare": ("a = [1]\n    b = a\n    a.append(100)\n    return b", [1]),
    "or": ("a = [1]\n    b = a or [5]\n    a.append(100)\n    return b", [1]),
    "and": ("a = [1]\n    b = a and a\n    a[0] = 100\n    return b", [1]),
    "ifexp": ("a = [1]\n    b = a if True else [2]\n    a.append(100)\n    return b", [1]),
    "dict_get_default": ("a = [1]\n    d = {'k': [0]}\n    b = d.get('z', a)\n    a.append(100)\n    return b", [1]),
    "in_dict": ("a = [1]\n    d = {'k': a}\n    a.append(100)\n    return d", {"k": [1]}),
    "out_of_dict": ("a = [1]\n    d = {'k': a}\n    c = d['k']\n    c.append(100)\n    return d", {"k": [1]}),
    "in_tuple": ("a = [1]\n    t = (a, 2)\n    a.append(100)\n    return t", ([1], 2)),
    "helper": ("a = [1]\n    b = ident(a)\n    a.append(100)\n    return b", [1]),
    "helper_mutates_its_copy": ("a = [1]\n    grow(a)\n    return a", [1]),
    "loop_target": ("a = [1]\n    r = []\n    for b in [a]:\n        a.append(100)\n        r = b\n    return r", [1]),
    "self_extend": ("a = [1]\n    a.extend(a)\n    return a", [1, 1]),
    "dict_alias": ("d = {'x': 1}\n    e = d or {}\n    d['x'] = 100\n    return e", {"x": 1}),
    "view_snapshot": ("d = {'x': 1}\n    vs = d.values()\n    d['y'] = 100\n    return vs", [1]),
    "loop_snapshot": ("a = [1, 2]\n    for x in a:\n        a.append(x)\n    return a", [1, 2, 1, 2]),
    "dict_loop_snapshot": ("d = {'a': 1}\n    for k in d:\n        d[k + 'x'] = 2\n    return d", {"a": 1, "ax": 2}),
    "returned_then_mutated": ("a = make()\n    b = a\n    a.append(100)\n    return b", [7]),
}

HELPERS = """
def ident(xs):
    return xs


def grow(xs):
    xs.append(100)


def make():
    out = [7]
    return out


"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_mutation_changes_only_the_named_variable(name: str) -> None:
    body, expected = CASES[name]
    program = build(HELPERS + "def main():\n    " + body + "\n")
    result = execute(program, {}, stdout=io.StringIO())
    assert result.outcome == "completed", result.error
    assert result.return_value == expected
