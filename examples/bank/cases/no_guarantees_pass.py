"""no_guarantees() holds when every call is valid; the balance is never negative."""

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance, withdraw


@clauz3.guarantee(bank.no_guarantees())
def main() -> None:
    owed = balance("loan")
    assert owed >= 0
    withdraw("loan", owed)
