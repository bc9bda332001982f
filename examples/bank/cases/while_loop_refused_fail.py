"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance, withdraw


@clauz3.guarantee(bank.max_spend(500))
def main() -> None:
    while balance("card") > 0:
        withdraw("card", 10)
