"""Any grocery order breaks no_groceries()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import order_grocery


@clauz3.guarantee(home.no_groceries())
def main() -> None:
    order_grocery("cake", 1, 20)
