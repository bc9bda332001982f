"""The last call breaks calendar.no_cancellations_or_moves()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import reschedule_calendar_event


@clauz3.guarantee(calendar.no_cancellations_or_moves())
def main() -> None:
    reschedule_calendar_event("6", "2024-05-20 10:00", new_end_time=None)
