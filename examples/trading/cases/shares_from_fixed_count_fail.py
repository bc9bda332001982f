"""A fixed share count does not come from an approval row."""
# clauz3-expect: violated guarantee

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares
from tools.trading.trusted.schemas import ApprovalRow


@clauz3.guarantee(trading.shares_from(ApprovalRow, "shares"))
def main() -> None:
    for row in list_approvals("equities", {"approved": True}):
        sell_shares(row.stock, 10)
