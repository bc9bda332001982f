"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import order_oligo, pipette, submit_protocol


@clauz3.guarantee(lab.no_guarantees())
def main() -> None:
    pipette("P9", "H12", 200, "anything")
    submit_protocol("any-instrument", "P9", 24)
    order_oligo("GGATCC", 1)
