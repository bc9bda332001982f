"""Each stock and each share count comes from some row, so stock_from and shares_from hold."""

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares
from tools.trading.trusted.schemas import ApprovalRow


@clauz3.guarantee(trading.stock_from(ApprovalRow, "stock"))
@clauz3.guarantee(trading.shares_from(ApprovalRow, "shares"))
def main() -> None:
    rows = list_approvals("equities", {"approved": True})
    if len(rows) > 0 and rows[0].shares > 0:
        for row in rows:
            sell_shares(row.stock, rows[0].shares)
