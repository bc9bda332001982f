"""Two runs add up to exactly the limit; the longer plan sits in a dead branch."""

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import submit_protocol


@clauz3.guarantee(lab.total_runtime_at_most(30))
def main() -> None:
    overnight = False
    submit_protocol("incubator-1", "P1", 24)
    if overnight:
        submit_protocol("incubator-1", "P1", 24)
    else:
        submit_protocol("reader-2", "P1", 6)
