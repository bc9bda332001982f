# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""Family 6 (found by the generator): round() of a known float to negative digits whose result
overflows. The prover itself crashed (OverflowError: rounded value too large to represent) instead
of giving a verdict; the interpreter raises OverflowError. Expected: an OverflowError obligation
reported violated, never a crash."""

from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import note

import clauz3


@clauz3.guarantee(g.notes_below(2.0))
def main() -> None:
    note(float(round(1.5e308, -308)))
