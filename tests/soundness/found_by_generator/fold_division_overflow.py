# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""Family 6: a constant int division whose quotient is too large for a float. CPython (and the
interpreter) raise OverflowError; the prover folded it to inf with no obligation. Expected: the
OverflowError obligation is reported violated (or the program refused)."""
import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import lock, note, pay, read_big, read_flag, read_int, send, unlock


@clauz3.guarantee(g.max_pay(5))
def main() -> None:
    x = (1 << 1100) / 3
    pay(1)
