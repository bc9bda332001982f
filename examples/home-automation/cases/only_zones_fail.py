"""The garage zone is not allowed."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.only_zones(["living", "bedroom"]))
def main() -> None:
    set_thermostat("garage", 50)
