"""These calls keep emails.none()."""

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import create_calendar_event


@clauz3.guarantee(emails.none())
def main() -> None:
    create_calendar_event("City Hub", "2025-01-02 00:00", "2025-01-02 23:59", "Stay", participants=None, location=None)
