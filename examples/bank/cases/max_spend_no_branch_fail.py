"""Paying whatever is owed can exceed 500: the balance may be larger."""
# clauz3-expect: violated guarantee

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance, withdraw


@clauz3.guarantee(bank.max_spend(500))
def main() -> None:
    owed = balance("card")
    withdraw("card", owed)
