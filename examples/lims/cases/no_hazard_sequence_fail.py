"""The motif is assembled from two pieces but still ends up in the sequence."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import order_oligo


@clauz3.guarantee(lab.no_hazard_sequence("GGATCC"))
def main() -> None:
    left = "AAGGA"
    right = "TCCAA"
    order_oligo(left + right, 10)
