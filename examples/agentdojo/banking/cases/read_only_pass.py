"""These calls keep banking.read_only()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import get_balance, get_most_recent_transactions


@clauz3.guarantee(banking.read_only())
def main() -> None:
    get_most_recent_transactions(100)
    get_balance()
