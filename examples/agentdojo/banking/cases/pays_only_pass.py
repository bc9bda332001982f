"""These calls keep banking.pays_only(["GB29NWBK60161331926819"])."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import get_most_recent_transactions, send_money


@clauz3.guarantee(banking.pays_only(["GB29NWBK60161331926819"]))
def main() -> None:
    get_most_recent_transactions(100)
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
