"""The last call breaks banking.password_unchanged()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_password


@clauz3.guarantee(banking.password_unchanged())
def main() -> None:
    update_password("1j1l-2k3j")
