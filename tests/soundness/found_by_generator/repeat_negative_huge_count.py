# ruff: noqa  (a generated program kept as it was found, shrunk by hand)
"""New (generative check, issue 18 guard work): repeating a str or a list by a constant count below
-sys.maxsize - 1 raises OverflowError in CPython ("cannot fit 'int' into an index-sized integer"); the
prover folded every constant count up to 10,000 (negative ones included) to the empty sequence with no
obligation, so it proved the program and the run raised with the door open. Expected: the
OverflowError obligation is not proved (the fold keeps the general path's check, family 6)."""
import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import lock, note, pay, read_big, read_flag, read_int, send, unlock


@clauz3.guarantee(g.locked_at_end("d"))
def main() -> None:
    unlock("d")
    a7: str = "aa"
    a8: int = -(1 << 1100)
    r9 = a7 * a8
    xs = [1] * a8
    lock("d")
