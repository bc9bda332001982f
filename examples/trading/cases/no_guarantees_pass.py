"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import sell_shares


@clauz3.guarantee(trading.no_guarantees())
def main() -> None:
    sell_shares("ACME", 10)
