"""These calls keep banking.no_payments()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import get_most_recent_transactions, update_scheduled_transaction


@clauz3.guarantee(banking.no_payments())
def main() -> None:
    get_most_recent_transactions(100)
    update_scheduled_transaction(7, recipient=None, amount=1200.0, subject=None, date=None, recurring=None)
