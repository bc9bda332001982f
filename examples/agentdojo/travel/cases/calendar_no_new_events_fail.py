"""The last call breaks calendar.no_new_events()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import calendar
from tools.travel.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.no_new_events())
def main() -> None:
    create_calendar_event("Booking a room at the Riverside View Hotel", "2024-05-01 09:00", "2024-05-01 10:00", "x", participants=["jay@google.com"], location=None)
