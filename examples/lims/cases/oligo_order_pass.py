"""Short primers without the screened motif."""

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import order_oligo


@clauz3.guarantee(lab.oligo_length_at_most(20))
@clauz3.guarantee(lab.no_hazard_sequence("GGATCC"))
def main() -> None:
    order_oligo("ACGTACGTACGTACGTACGT", 100)
    order_oligo("TTGACA", 1000)
