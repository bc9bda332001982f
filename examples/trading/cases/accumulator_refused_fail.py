"""A running total in a loop over rows is an accumulator, which symbolic loops refuse."""
# clauz3-expect: refused loop-restriction

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares


@clauz3.guarantee(trading.orders_at_most(50))
def main() -> None:
    total = 0
    for row in list_approvals("equities", {"approved": True}):
        total += row.shares
    if total > 0:
        sell_shares("ACME", total)
