"""The last call breaks travel.read_only()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_hotel


@clauz3.guarantee(travel.read_only())
def main() -> None:
    reserve_hotel("Riverside View Hotel", "2024-05-13", "2024-05-17")
