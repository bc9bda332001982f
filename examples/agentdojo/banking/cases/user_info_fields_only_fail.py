"""The address change also renames the user: banking.user_info_fields_only(["street", "city"]) is broken."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_user_info


@clauz3.guarantee(banking.user_info_fields_only(["street", "city"]))
def main() -> None:
    update_user_info(first_name="Mallory", last_name=None, street="Dalton Street 123", city="New York")
