"""The sequencer is not an allowed instrument."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import submit_protocol


@clauz3.guarantee(lab.only_instruments(["incubator-1", "reader-2"]))
def main() -> None:
    submit_protocol("reader-2", "P1", 1)
    submit_protocol("sequencer-9", "P1", 8)
