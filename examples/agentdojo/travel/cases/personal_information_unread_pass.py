"""These calls keep travel.personal_information_unread()."""

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import get_all_hotels_in_city


@clauz3.guarantee(travel.personal_information_unread())
def main() -> None:
    get_all_hotels_in_city("Paris")
