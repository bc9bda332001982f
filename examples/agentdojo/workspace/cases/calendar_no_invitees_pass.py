"""These calls keep calendar.no_invitees()."""

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import create_calendar_event


@clauz3.guarantee(calendar.no_invitees())
def main() -> None:
    create_calendar_event("Follow-up meeting", "2024-05-19 16:00", "2024-05-19 17:00", "x", participants=None, location=None)
