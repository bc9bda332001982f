"""The last call breaks travel.bookings_at_most(1)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_hotel


@clauz3.guarantee(travel.bookings_at_most(1))
def main() -> None:
    reserve_hotel("Le Marais Boutique", "2025-01-11", "2025-01-15")
    reserve_hotel("Riverside View Hotel", "2024-05-13", "2024-05-17")
