"""These calls keep calendar.no_new_events()."""

import clauz3
from tools.travel.trusted import calendar
from tools.travel.trusted.effects import get_all_hotels_in_city


@clauz3.guarantee(calendar.no_new_events())
def main() -> None:
    get_all_hotels_in_city("Paris")
