# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""Family 3: enumerate over a set display with a repeated element. The proof's index counted the
hidden repeat, so it believed the index 2 never meets the element 2 (it gave 2 the index 3); the
run gives 2 the index 2 and unlocks the door. Expected: not proved (the door may be unlocked)."""
import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import lock, note, pay, read_big, read_flag, read_int, send, unlock


@clauz3.guarantee(g.locked_at_end("front"))
def main() -> None:
    for i, x in enumerate({3, 1, 3, 2}):
        if i == 2:
            unlock("front")
