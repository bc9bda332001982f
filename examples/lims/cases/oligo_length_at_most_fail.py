"""A 24-base oligo is longer than 20."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import order_oligo


@clauz3.guarantee(lab.oligo_length_at_most(20))
def main() -> None:
    order_oligo("ACGTACGTACGTACGTACGTACGT", 100)
