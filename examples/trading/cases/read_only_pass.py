"""Reading approvals of one desk with one filter, selling nothing."""

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals


@clauz3.guarantee(trading.approvals_only_desk("equities"))
@clauz3.guarantee(trading.approvals_only_where({"approved": True}))
@clauz3.guarantee(trading.none())
def main() -> None:
    rows = list_approvals("equities", {"approved": True})
    print(len(rows))
