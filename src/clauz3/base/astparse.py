"""``ast.parse`` behind one process-wide lock.

CPython 3.11 keeps the AST converter's recursion counter per interpreter, not per thread, so two
threads parsing at once can fail with ``SystemError: AST constructor recursion depth mismatch``
(cpython gh-106905). The service parses trusted sources in worker threads; this serialises it.
"""

from __future__ import annotations

import threading
from typing import Any

_LOCK = threading.Lock()


def parse_ast(source: str | bytes, filename: str = "<unknown>", mode: str = "exec", **kwargs: Any) -> Any:
    import ast  # lazily: `import clauz3` must stay light (01 CORE-3)

    with _LOCK:
        return ast.parse(source, filename, mode, **kwargs)
