"""Twelve eggs are more than ten units."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import order_grocery


@clauz3.guarantee(home.grocery_items_at_most(10))
def main() -> None:
    order_grocery("eggs", 12, 4)
