"""Moving event 5 keeps its length: calendar.moves_change_only([]) holds."""

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import reschedule_calendar_event


@clauz3.guarantee(calendar.moves_change_only([]))
def main() -> None:
    reschedule_calendar_event("5", "2024-05-20 10:00", new_end_time=None)
