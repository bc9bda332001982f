"""The last call breaks banking.scheduled_recipients_only(["US133000000121212121212"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_scheduled_transaction


@clauz3.guarantee(banking.scheduled_recipients_only(["US133000000121212121212"]))
def main() -> None:
    update_scheduled_transaction(6, recipient="US133000000121212121212", amount=None, subject=None, date=None, recurring=None)
    update_scheduled_transaction(6, recipient="X", amount=None, subject=None, date=None, recurring=None)
