"""Thermostat settings within the promised range."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.temp_between(60, 75))
@clauz3.guarantee(home.only_zones(["living", "bedroom"]))
def main() -> None:
    set_thermostat("living", 68)
    set_thermostat("bedroom", 60)
