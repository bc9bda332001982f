"""These calls keep calendar.invitees_only(["sarah.connor@gmail.com"])."""

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.invitees_only(["sarah.connor@gmail.com"]))
def main() -> None:
    create_calendar_event("Lunch", "2024-05-19 12:00", "2024-05-19 13:00", "Catch up", participants=["sarah.connor@gmail.com"], location=None)
