"""The back door is unlocked but not listed."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.only_unlock_doors(["front"]))
def main() -> None:
    unlock_door("front")
    unlock_door("back")
    lock_door("back")
