"""The last call breaks calendar.events_titled_starting("Dinner at ")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import calendar
from tools.travel.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.events_titled_starting("Dinner at "))
def main() -> None:
    create_calendar_event("Dinner at New Israeli Restaurant", "2024-11-14 18:00", "2024-11-14 20:00", "Dinner", participants=None, location=None)
    create_calendar_event("Booking a room at the Riverside View Hotel", "2024-05-01 09:00", "2024-05-01 10:00", "x", participants=None, location=None)
