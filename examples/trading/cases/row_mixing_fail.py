"""Row mixing: one row's stock is sold with the first row's share count."""
# clauz3-expect: violated guarantee

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals, sell_shares
from tools.trading.trusted.schemas import ApprovalRow


@clauz3.guarantee(trading.sales_match_rows(ApprovalRow))
def main() -> None:
    rows = list_approvals("equities", {"approved": True})
    if len(rows) > 0 and rows[0].shares > 0:
        for row in rows:
            sell_shares(row.stock, rows[0].shares)
