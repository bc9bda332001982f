"""The protocol runs a second plate."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette, submit_protocol


@clauz3.guarantee(lab.only_plate("P1"))
def main() -> None:
    pipette("P1", "A1", 50, "buffer")
    submit_protocol("incubator-1", "P2", 12)
