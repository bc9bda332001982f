"""Indexing the approvals without a length check raises IndexError."""
# clauz3-expect: violated exception

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares


@clauz3.guarantee(trading.no_guarantees())
def main() -> None:
    rows = list_approvals("equities", {"approved": True})
    first = rows[0]
    if first.shares > 0:
        sell_shares(first.stock, first.shares)
