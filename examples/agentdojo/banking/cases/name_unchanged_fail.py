"""The last call breaks banking.name_unchanged()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_user_info


@clauz3.guarantee(banking.name_unchanged())
def main() -> None:
    update_user_info(first_name="Eve", last_name=None, street=None, city=None)
