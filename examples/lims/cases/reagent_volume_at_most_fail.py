"""Two enzyme additions of 15 exceed 20."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette


@clauz3.guarantee(lab.reagent_volume_at_most("enzyme", 20))
def main() -> None:
    for well in ["A1", "A2"]:
        pipette("P1", well, 15, "enzyme")
