"""The last call breaks banking.scheduled_changes_only([7])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_scheduled_transaction


@clauz3.guarantee(banking.scheduled_changes_only([7]))
def main() -> None:
    update_scheduled_transaction(7, recipient=None, amount=1200.0, subject=None, date=None, recurring=None)
    update_scheduled_transaction(6, recipient="US133000000121212121212", amount=None, subject=None, date=None, recurring=None)
