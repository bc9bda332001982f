"""The last call breaks banking.recipient_paid_at_most("US133000000121212121212", 0)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.recipient_paid_at_most("US133000000121212121212", 0))
def main() -> None:
    send_money("US133000000121212121212", 0.01, "x", "2022-04-01")
