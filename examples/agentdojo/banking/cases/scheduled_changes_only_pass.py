"""These calls keep banking.scheduled_changes_only([7])."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_scheduled_transaction


@clauz3.guarantee(banking.scheduled_changes_only([7]))
def main() -> None:
    update_scheduled_transaction(7, recipient=None, amount=1200.0, subject=None, date=None, recurring=None)
