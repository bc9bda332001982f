"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares


@clauz3.guarantee(trading.orders_at_most(50))
def main() -> None:
    rows = list_approvals("equities", {"approved": True})
    while len(rows) > 0:
        sell_shares(rows[0].stock, 1)
