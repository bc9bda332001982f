# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""New (per-operation differential test): `x << n` with n of 20 digits or more raises OverflowError
(CPython cannot even try to build the int); the prover's only obligation for a non-constant shift
was n >= 0. Expected: an OverflowError obligation that is not proved for an unbounded n."""
import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import lock, note, pay, read_big, read_flag, read_int, send, unlock


@clauz3.guarantee(g.max_pay(5))
def main() -> None:
    n = read_big("k")
    if n > 99999999999999999999:
        y = 1 << n
        pay(y % 2)
    pay(1)
