"""These calls keep calendar.events_titled_starting("Dinner at ")."""

import clauz3
from tools.travel.trusted import calendar
from tools.travel.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.events_titled_starting("Dinner at "))
def main(name: str) -> None:
    create_calendar_event("Dinner at " + name, "2024-11-14 18:00", "2024-11-14 20:00", "Dinner", participants=None, location=None)
