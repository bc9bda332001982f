"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import set_thermostat


@clauz3.guarantee(home.temp_between(60, 75))
def main() -> None:
    temp = 60
    while temp < 70:
        set_thermostat("living", temp)
        temp += 5
