"""80 is above the promised 75 (though valid for the thermostat)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.temp_between(60, 75))
def main() -> None:
    set_thermostat("living", 68)
    set_thermostat("living", 80)
