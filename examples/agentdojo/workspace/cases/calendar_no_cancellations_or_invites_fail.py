"""The last call breaks calendar.no_cancellations_or_invites()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import add_calendar_event_participants


@clauz3.guarantee(calendar.no_cancellations_or_invites())
def main() -> None:
    add_calendar_event_participants("24", ["mark.black-2134@gmail.com"])
