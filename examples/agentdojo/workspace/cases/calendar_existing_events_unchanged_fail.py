"""The last call breaks calendar.existing_events_unchanged()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import cancel_calendar_event


@clauz3.guarantee(calendar.existing_events_unchanged())
def main() -> None:
    cancel_calendar_event("5")
