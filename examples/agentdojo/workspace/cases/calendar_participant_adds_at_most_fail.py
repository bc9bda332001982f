"""Adding participants to a second event breaks calendar.participant_adds_at_most(1)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import add_calendar_event_participants


@clauz3.guarantee(calendar.participant_adds_at_most(1))
def main() -> None:
    add_calendar_event_participants("24", ["john.doe@clientcorp.com"])
    add_calendar_event_participants("25", ["john.doe@clientcorp.com"])
