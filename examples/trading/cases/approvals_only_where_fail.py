"""Listing pending approvals breaks approvals_only_where."""
# clauz3-expect: violated guarantee

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals


@clauz3.guarantee(trading.approvals_only_where({"approved": True}))
def main() -> None:
    list_approvals("equities", {"approved": True})
    list_approvals("equities", {"approved": False})
