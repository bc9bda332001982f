"""``ast.get_source_segment`` without re-splitting the whole source on every call.

The stdlib splits *source* into lines each time it is asked for one node's text, so a module with
n nodes asked about costs O(n x size): the library scan behind ``GET /api/workspace/libraries`` spent
95 % of its time there (issue 13, first minute). This splits each source once (a small LRU keyed by
the string) and cuts the same bytes the stdlib cuts; the result is identical, text for display and
messages only.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ast

# The Python parser's line ends (\r\n, \r, \n) and nothing else: not \f, \v or U+2028, which
# str.splitlines would also split on.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


@functools.lru_cache(maxsize=16)
def _lines(source: str) -> tuple[str, ...]:
    return tuple(_LINE.findall(source))


def source_segment(source: str, node: ast.AST) -> str | None:
    """The text of *node* in *source*, exactly as ``ast.get_source_segment(source, node)`` gives it."""
    end_lineno = getattr(node, "end_lineno", None)
    end_col = getattr(node, "end_col_offset", None)
    lineno = getattr(node, "lineno", None)
    col = getattr(node, "col_offset", None)
    if end_lineno is None or end_col is None or lineno is None or col is None:
        return None
    lines = _lines(source)
    first, last = lineno - 1, end_lineno - 1
    if first == last:
        return lines[first].encode()[col:end_col].decode()
    head = lines[first].encode()[col:].decode()
    tail = lines[last].encode()[:end_col].decode()
    return "".join((head, *lines[first + 1:last], tail))
