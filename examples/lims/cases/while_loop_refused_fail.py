"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette


@clauz3.guarantee(lab.total_pipette_volume_at_most(200))
def main() -> None:
    added = 0
    while added < 200:
        pipette("P1", "A1", 50, "buffer")
        added += 50
