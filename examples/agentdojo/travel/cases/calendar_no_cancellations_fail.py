"""The last call breaks calendar.no_cancellations()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import calendar
from tools.travel.trusted.effects import cancel_calendar_event


@clauz3.guarantee(calendar.no_cancellations())
def main() -> None:
    cancel_calendar_event("1")
