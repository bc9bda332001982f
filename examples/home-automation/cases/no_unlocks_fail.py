"""Any unlock breaks no_unlocks(), even if the door is locked again."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.no_unlocks())
def main() -> None:
    unlock_door("front")
    lock_door("front")
