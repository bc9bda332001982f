"""Any oligo order breaks no_oligos()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import order_oligo


@clauz3.guarantee(lab.no_oligos())
def main() -> None:
    order_oligo("ACGTACGT", 10)
