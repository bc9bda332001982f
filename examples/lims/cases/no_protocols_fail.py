"""Any submitted protocol breaks no_protocols()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette, submit_protocol


@clauz3.guarantee(lab.no_protocols())
def main() -> None:
    pipette("P1", "B1", 100, "water")
    submit_protocol("reader-2", "P1", 1)
