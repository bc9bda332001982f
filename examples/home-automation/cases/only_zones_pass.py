"""Zones in a literal list, one thermostat call each."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.only_zones(["living", "bedroom"]))
def main() -> None:
    for zone in ["bedroom", "living"]:
        set_thermostat(zone, 65)
