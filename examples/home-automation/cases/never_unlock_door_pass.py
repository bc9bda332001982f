"""Other doors may be unlocked; the safe room never is."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.never_unlock_door("safe-room"))
def main() -> None:
    unlock_door("front")
    lock_door("safe-room")
