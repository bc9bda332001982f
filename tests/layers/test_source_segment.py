"""``clauz3.layers._segment.source_segment`` gives exactly ``ast.get_source_segment``'s text (issue 13: the
library scan behind the Libraries route used the stdlib's O(nodes x size) form)."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

from clauz3.layers._segment import source_segment

# Line ends the parser splits on (\r\n, lone \r, \n) beside characters str.splitlines would also
# split on but the parser does not (\f, \v, \x1c, U+2028), and multi-byte text before a node.
TRICKY = [
    "x = 1\r\ny = (2,\r 3)\f\nz = '\u2028\x0b' + 'a'\n",
    "a = (1 +\n  2)",
    "é = ('ü',\r\n 'ß')\r\n",
    "x=1\r\r\n\ny=(1,\n\n2)\r",
    "def f(a: 'ä' = ('\x1c',\n  1), *b: int, **c: str) -> dict[\n str, int]:\n    return {'ü': lambda q: (q,\n q)}\n",
]


def _nodes(source: str) -> list[ast.AST]:
    return [n for n in ast.walk(ast.parse(source)) if hasattr(n, "lineno")]


@pytest.mark.parametrize("source", TRICKY)
def test_tricky_sources_match_the_stdlib(source: str) -> None:
    nodes = _nodes(source)
    assert nodes
    for node in nodes:
        assert source_segment(source, node) == ast.get_source_segment(source, node), ast.dump(node)


def test_bundled_stdlib_trusted_sources_match_the_stdlib() -> None:
    root = Path(str(resources.files("clauz3").joinpath("stdlib")))
    files = sorted(root.rglob("trusted/*.py"))
    assert files, f"no trusted modules under {root}"
    checked = 0
    for path in files:
        source = path.read_bytes().decode("utf-8-sig")
        for node in _nodes(source):
            assert source_segment(source, node) == ast.get_source_segment(source, node), (path, ast.dump(node))
            checked += 1
    assert checked > 1000


def test_a_node_without_positions_has_no_segment() -> None:
    assert source_segment("x = 1\n", ast.Name("x")) is None
