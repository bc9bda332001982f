"""Reading another account's balance breaks only_account (it covers balance too)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance, withdraw


@clauz3.guarantee(bank.only_account("card"))
def main() -> None:
    savings = balance("savings")
    if savings > 100:
        withdraw("card", 10)
