"""Up to 50 approvals can mean 50 orders, more than 10."""
# clauz3-expect: violated guarantee

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares


@clauz3.guarantee(trading.orders_at_most(10))
def main() -> None:
    for row in list_approvals("equities", {"approved": True}):
        if row.shares > 0:
            sell_shares(row.stock, row.shares)
