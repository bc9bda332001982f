"""The last call breaks banking.pays_only(["GB29NWBK60161331926819"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.pays_only(["GB29NWBK60161331926819"]))
def main() -> None:
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
    send_money("US133000000121212121212", 0.01, "x", "2022-04-01")
