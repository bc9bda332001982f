"""Listing a second desk breaks approvals_only_desk."""
# clauz3-expect: violated guarantee

import clauz3
from tools.trading.trusted import contracts as trading
from tools.trading.trusted.effects import list_approvals


@clauz3.guarantee(trading.approvals_only_desk("equities"))
def main() -> None:
    for desk in ["equities", "bonds"]:
        list_approvals(desk, {"approved": True})
