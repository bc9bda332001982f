"""These calls keep banking.no_guarantees()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.no_guarantees())
def main() -> None:
    send_money("US133000000121212121212", 0.01, "x", "2022-04-01")
