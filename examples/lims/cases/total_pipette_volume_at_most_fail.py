"""Three wells of 50 microlitres exceed 100 in total (unrolled range loop)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.lims.trusted import contracts as lab
from tools.lims.trusted.effects import pipette


@clauz3.guarantee(lab.total_pipette_volume_at_most(100))
def main() -> None:
    for i in range(3):
        pipette("P1", "A1", 50, "buffer")
