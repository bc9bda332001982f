"""These calls keep banking.user_info_unchanged()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_password


@clauz3.guarantee(banking.user_info_unchanged())
def main() -> None:
    update_password("1j1l-2k3j")
