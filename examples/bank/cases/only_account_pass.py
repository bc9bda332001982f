"""Reading and withdrawing from the one allowed account."""

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance, withdraw


def settle(account: str, cap: int) -> None:
    owed = balance(account)
    if owed < cap:
        withdraw(account, owed)


@clauz3.guarantee(bank.only_account("card"))
def main() -> None:
    settle("card", 50)
