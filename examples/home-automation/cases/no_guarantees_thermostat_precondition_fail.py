"""100 degrees breaks set_thermostat's precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.no_guarantees())
def main() -> None:
    set_thermostat("living", 100)
