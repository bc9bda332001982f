"""These calls keep banking.recipient_paid_at_most("US133000000121212121212", 0)."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.recipient_paid_at_most("US133000000121212121212", 0))
def main() -> None:
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
