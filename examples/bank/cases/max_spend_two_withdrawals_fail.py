"""Two withdrawals of 300 exceed a limit of 500 together."""
# clauz3-expect: violated guarantee

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import withdraw


@clauz3.guarantee(bank.max_spend(500))
def main() -> None:
    withdraw("card", 300)
    withdraw("card", 300)
