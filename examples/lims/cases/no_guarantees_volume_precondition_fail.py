"""500 microlitres breaks pipette's precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette


@clauz3.guarantee(lab.no_guarantees())
def main() -> None:
    pipette("P1", "A1", 500, "buffer")
