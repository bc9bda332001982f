from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import update_scheduled_transaction

import clauz3


@clauz3.guarantee(banking.scheduled_changes_only([7]))
@clauz3.guarantee(banking.scheduled_fields_only(["recipient"]))
def main() -> None:
    update_scheduled_transaction(7, recipient="US133000000121212121212", amount=None, subject=None, date=None,
                                 recurring=True)
