"""The last call breaks travel.no_bookings()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_car_rental


@clauz3.guarantee(travel.no_bookings())
def main() -> None:
    reserve_car_rental("Speedy Rentals", "2024-05-15 09:00", "2024-05-18 09:00")
