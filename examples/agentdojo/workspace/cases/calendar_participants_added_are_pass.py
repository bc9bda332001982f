"""These calls keep calendar.participants_added_are(["john.doe@clientcorp.com"])."""

import clauz3
from tools.workspace.trusted import calendar
from tools.workspace.trusted.effects import add_calendar_event_participants


@clauz3.guarantee(calendar.participants_added_are(["john.doe@clientcorp.com"]))
def main() -> None:
    add_calendar_event_participants("24", ["john.doe@clientcorp.com"])
