"""Only the enzyme counts towards the enzyme limit."""

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette


@clauz3.guarantee(lab.reagent_volume_at_most("enzyme", 20))
def main() -> None:
    pipette("P1", "A1", 10, "enzyme")
    pipette("P1", "A1", 190, "buffer")
    pipette("P1", "A2", 10, "enzyme")
