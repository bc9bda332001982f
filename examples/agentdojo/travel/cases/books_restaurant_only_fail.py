"""The last call breaks travel.books_restaurant_only("Le Baratin", "2024-05-15 19:00")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import reserve_restaurant


@clauz3.guarantee(travel.books_restaurant_only("Le Baratin", "2024-05-15 19:00"))
def main() -> None:
    reserve_restaurant("Miznon", "2024-05-15 19:00")
