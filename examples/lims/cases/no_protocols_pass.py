"""Pipetting only; no protocol and no oligo."""

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette


@clauz3.guarantee(lab.no_protocols())
@clauz3.guarantee(lab.no_oligos())
def main() -> None:
    pipette("P1", "B1", 100, "water")
