"""Moving house changes only the street and city: banking.user_info_fields_only(["street", "city"]) holds."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_user_info


@clauz3.guarantee(banking.user_info_fields_only(["street", "city"]))
def main() -> None:
    update_user_info(first_name=None, last_name=None, street="Dalton Street 123", city="New York")
