"""Groceries within the budget, ordered through a helper function."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import order_grocery


def order_for_week(extra_fruit: bool) -> None:
    order_grocery("milk", 2, 6)
    order_grocery("bread", 1, 4)
    if extra_fruit:
        order_grocery("apples", 6, 5)


@clauz3.guarantee(home.grocery_budget(15))
@clauz3.guarantee(home.grocery_items_at_most(9))
def main() -> None:
    order_for_week(True)
