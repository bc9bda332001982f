"""The order sits in a dead branch, so nothing is ordered."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import order_grocery


@clauz3.guarantee(home.no_groceries())
def main() -> None:
    if 1 > 2:
        order_grocery("cake", 1, 20)
