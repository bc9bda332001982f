"""Parsing and checking the Python subset into one IR (01 §3).

The package's names load on first use (PEP 562): a module that needs only a small piece of the language
package (the layer hash on the first page's Libraries call) must not pay for the checker and the IR.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clauz3.language.checker import check_program, check_source
    from clauz3.language.diagnostics import Refused

__all__ = ["Refused", "check_program", "check_source"]


def __getattr__(name: str) -> object:
    if name in ("check_program", "check_source"):
        from clauz3.language import checker

        return getattr(checker, name)
    if name == "Refused":
        from clauz3.language.diagnostics import Refused

        return Refused
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
