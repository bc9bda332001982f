"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import order_grocery, set_thermostat, unlock_door


@clauz3.guarantee(home.no_guarantees())
def main() -> None:
    set_thermostat("living", 90)
    unlock_door("front")
    order_grocery("milk", 2, 5)
