"""The move of event 5 also sets a new end time: calendar.moves_change_only([]) is broken."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import reschedule_calendar_event


@clauz3.guarantee(calendar.moves_change_only([]))
def main() -> None:
    reschedule_calendar_event("5", "2024-05-20 10:00", new_end_time="2024-05-20 18:00")
