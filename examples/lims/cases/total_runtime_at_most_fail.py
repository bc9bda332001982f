"""24 + 8 hours exceed 30."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import submit_protocol


@clauz3.guarantee(lab.total_runtime_at_most(30))
def main() -> None:
    submit_protocol("incubator-1", "P1", 24)
    submit_protocol("reader-2", "P1", 8)
