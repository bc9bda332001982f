"""These calls keep travel.no_car_bookings()."""

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_hotel


@clauz3.guarantee(travel.no_car_bookings())
def main() -> None:
    reserve_hotel("Le Marais Boutique", "2025-01-11", "2025-01-15")
