"""The last call breaks banking.password_only("1j1l-2k3j")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_password


@clauz3.guarantee(banking.password_only("1j1l-2k3j"))
def main() -> None:
    update_password("1j1l-2k3j")
    update_password("new_password")
