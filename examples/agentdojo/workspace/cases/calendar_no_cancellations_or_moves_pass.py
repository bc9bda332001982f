"""These calls keep calendar.no_cancellations_or_moves()."""

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import add_calendar_event_participants


@clauz3.guarantee(calendar.no_cancellations_or_moves())
def main() -> None:
    add_calendar_event_participants("24", ["john.doe@clientcorp.com"])
