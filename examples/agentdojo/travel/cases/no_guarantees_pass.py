"""These calls keep travel.no_guarantees()."""

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_hotel


@clauz3.guarantee(travel.no_guarantees())
def main() -> None:
    reserve_hotel("Riverside View Hotel", "2024-05-13", "2024-05-17")
