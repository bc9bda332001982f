"""The last call breaks calendar.events_titled_only(["Lunch"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.events_titled_only(["Lunch"]))
def main() -> None:
    create_calendar_event("Intro with Mark", "2024-05-30 10:20", "2024-05-30 11:20", "", participants=["mark.black-2134@gmail.com"], location=None)
