"""These calls keep banking.each_payment_at_most(12.0)."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.each_payment_at_most(12.0))
def main() -> None:
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
