"""Fill three wells of one plate, then run that plate."""

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette, submit_protocol


@clauz3.guarantee(lab.only_plate("P1"))
@clauz3.guarantee(lab.total_pipette_volume_at_most(150))
@clauz3.guarantee(lab.only_instruments(["incubator-1"]))
def main() -> None:
    for well in ["A1", "A2", "A3"]:
        pipette("P1", well, 50, "buffer")
    submit_protocol("incubator-1", "P1", 12)
