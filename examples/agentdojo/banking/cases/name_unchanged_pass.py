"""These calls keep banking.name_unchanged()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_user_info


@clauz3.guarantee(banking.name_unchanged())
def main() -> None:
    update_user_info(first_name=None, last_name=None, street="Dalton Street 123", city="New York")
