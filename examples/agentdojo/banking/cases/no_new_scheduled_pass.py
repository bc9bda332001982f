"""These calls keep banking.no_new_scheduled()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money, update_scheduled_transaction


@clauz3.guarantee(banking.no_new_scheduled())
def main() -> None:
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
    update_scheduled_transaction(7, recipient=None, amount=1200.0, subject=None, date=None, recurring=None)
