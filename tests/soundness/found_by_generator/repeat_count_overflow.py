# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""New (per-operation differential test): repeating a str (even an empty one) by a count past
sys.maxsize raises OverflowError in CPython; the prover's obligation only bounded count × length,
which is 0 for an empty str, so it proved no exception. Expected: the OverflowError obligation is
not proved when the count may exceed sys.maxsize."""
import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import lock, note, pay, read_big, read_flag, read_int, send, unlock


@clauz3.guarantee(g.max_pay(5))
def main() -> None:
    n = read_big("k")
    if n > 9223372036854775807:
        s = "" * n
        send(s, 1)
    pay(1)
