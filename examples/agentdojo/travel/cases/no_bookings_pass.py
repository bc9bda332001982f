"""These calls keep travel.no_bookings()."""

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import create_calendar_event


@clauz3.guarantee(travel.no_bookings())
def main() -> None:
    create_calendar_event("City Hub", "2025-01-02 00:00", "2025-01-02 23:59", "Stay", participants=None, location=None)
