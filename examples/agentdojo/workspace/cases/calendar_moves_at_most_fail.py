"""The second move breaks calendar.moves_at_most(1)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import reschedule_calendar_event


@clauz3.guarantee(calendar.moves_at_most(1))
def main() -> None:
    reschedule_calendar_event("5", "2024-05-20 10:00", new_end_time=None)
    reschedule_calendar_event("6", "2024-05-21 10:00", new_end_time=None)
