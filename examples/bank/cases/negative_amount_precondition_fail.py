"""A negative amount breaks withdraw's precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import withdraw


@clauz3.guarantee(bank.no_guarantees())
def main() -> None:
    withdraw("card", -5)
