"""10 + 4 + 5 US dollars exceed a budget of 15."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import order_grocery


@clauz3.guarantee(home.grocery_budget(15))
def main() -> None:
    order_grocery("milk", 2, 10)
    order_grocery("bread", 1, 4)
    order_grocery("apples", 6, 5)
