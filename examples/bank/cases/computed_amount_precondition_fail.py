"""balance - 10 may be negative, so withdraw's precondition can fail."""
# clauz3-expect: violated precondition

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance, withdraw


@clauz3.guarantee(bank.max_spend(1000))
def main() -> None:
    owed = balance("card")
    if owed < 1000:
        withdraw("card", owed - 10)
