"""These calls keep travel.no_hotel_bookings()."""

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_restaurant


@clauz3.guarantee(travel.no_hotel_bookings())
def main() -> None:
    reserve_restaurant("Le Baratin", "2024-05-15 19:00")
