"""An unrolled loop of three withdrawals of 100 stays within 300."""

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import withdraw


@clauz3.guarantee(bank.max_spend(300))
def main() -> None:
    for account in ["card", "loan", "savings"]:
        withdraw(account, 100)
