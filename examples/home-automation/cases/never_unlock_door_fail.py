"""The safe room is unlocked inside a branch that is taken."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import unlock_door


@clauz3.guarantee(home.never_unlock_door("safe-room"))
def main() -> None:
    guests = 2
    if guests > 1:
        unlock_door("safe-room")
