"""A row's share count may be zero or negative, so an unguarded sale can break the precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares
from tools.trading.trusted.schemas import ApprovalRow


@clauz3.guarantee(trading.sales_match_rows(ApprovalRow))
def main() -> None:
    for row in list_approvals("equities", {"approved": True}):
        sell_shares(row.stock, row.shares)
