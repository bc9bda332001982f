"""Format specs in f-string fields (``f"{total:.2f}"``): a small, value-independent subset.

``format(value, spec)`` is what the interpreter runs; the prover computes the same call on known
values and treats unknown ones as unknown text. A spec is accepted only when no value of the
field's type can make ``format`` raise, which holds for these shapes (and is checked on samples):

* float: ``[[fill]align][sign][0][width][,|_][.precision]type`` with type one of ``f F e E g G %``
  (these accept ints and bools too, so a path-dependent number formats the same way);
* int: ``[[fill]align][sign][#][0][width][,|_][d x X o b]`` (no precision: an int refuses one);
* str: ``[[fill]align][width][.precision][s]`` (no ``=`` alignment, no sign).

Widths and precisions are at most 3 digits, so a spec cannot ask for an enormous string. An int of
more than ``INT_BITS`` bits raises ``ValueError`` (an obligation in the prover): below it an int has
fewer than 640 decimal digits (converted under any ``PYTHONINTMAXSTRDIGITS``) and fits a float.
"""

from __future__ import annotations

import re

from clauz3.language import ir
from clauz3.language.types import show

_FILL = r"(?:[^{}]?[<>^=])?"
_NUMBER = {
    "float": re.compile(_FILL + r"[+\- ]?0?\d{0,3}[,_]?(?:\.\d{1,3})?[fFeEgG%]"),
    "int": re.compile(_FILL + r"[+\- ]?#?0?\d{0,3}[,_]?[dxXob]?"),
    "str": re.compile(r"(?:[^{}]?[<>^])?\d{0,3}(?:\.\d{1,3})?s?"),
}
_SAMPLES: dict[str, tuple[object, ...]] = {
    "float": (0.0, -1.5, 1e300, float("nan"), float("-inf"), 3, True),
    "int": (0, -7, 10**30, True),
    "str": ("", "abc", "é😀"),
}
INT_BITS = 1_000
HINT = "use a spec such as `.2f` (floats), `,` or `05d` (ints) or `>10` (str), or convert with str() first"


def spec_problem(spec: str, t: ir.Type) -> str | None:
    """Why ``spec`` is refused for a field of type ``t`` (None when it is accepted)."""
    kind = "float" if t == ir.FLOAT else "int" if t in (ir.INT, ir.BOOL) else "str" if t == ir.STR else None
    if kind is None:
        return f"a format spec on a value of type {show(t)}"
    if not _NUMBER[kind].fullmatch(spec):
        return f"format spec `{spec}` for a {kind}"
    for sample in _SAMPLES[kind]:
        try:
            format(sample, spec)
        except (ValueError, TypeError, OverflowError):
            return f"format spec `{spec}` for a {kind}"
    return None
