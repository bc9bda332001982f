"""The last call breaks banking.scheduled_recipients_unchanged()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_scheduled_transaction


@clauz3.guarantee(banking.scheduled_recipients_unchanged())
def main() -> None:
    update_scheduled_transaction(7, recipient="US133000000121212121212", amount=2200.0, subject=None, date=None, recurring=None)
