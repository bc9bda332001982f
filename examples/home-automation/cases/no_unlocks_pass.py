"""A door that is never touched stays locked (its initial state)."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.no_unlocks())
def main() -> None:
    set_thermostat("living", 68)
