"""Changing only the recipient of standing order 7 keeps banking.scheduled_fields_only(["recipient"])."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_scheduled_transaction


@clauz3.guarantee(banking.scheduled_fields_only(["recipient"]))
def main() -> None:
    update_scheduled_transaction(7, recipient="US133000000121212121212", amount=None, subject=None, date=None,
                                 recurring=None)
