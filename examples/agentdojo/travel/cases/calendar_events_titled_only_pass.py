"""These calls keep calendar.events_titled_only(["City Hub"])."""

import clauz3
from tools.travel.trusted import calendar
from tools.travel.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.events_titled_only(["City Hub"]))
def main() -> None:
    create_calendar_event("City Hub", "2025-01-02 00:00", "2025-01-02 23:59", "Stay", participants=None, location=None)
