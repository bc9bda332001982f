# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""Family 4: `<` between sets. The interpreter raises TypeError (its sets define no order; in
CPython `<` would be a subset test); the prover compared the sets element by element as sequences
and proved no exception. Expected: refused, or an exception obligation that is not proved."""
import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import lock, note, pay, read_big, read_flag, read_int, send, unlock


@clauz3.guarantee(g.max_pay(5))
def main() -> None:
    a = {1}
    b = {1, 2}
    if a < b:
        pay(1)
    pay(1)
