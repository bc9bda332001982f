"""Two withdrawals that add up to exactly the limit."""

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import withdraw


@clauz3.guarantee(bank.max_spend(300))
def main() -> None:
    withdraw("card", 100)
    withdraw("savings", 200)
