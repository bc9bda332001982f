"""These calls keep banking.payments_at_most(1)."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import schedule_transaction, send_money


@clauz3.guarantee(banking.payments_at_most(1))
def main() -> None:
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
    schedule_transaction("US122000000121212121212", 50.0, "iPhone", "2022-04-01", True)
