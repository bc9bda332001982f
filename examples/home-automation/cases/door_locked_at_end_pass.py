"""The garage ends locked even though the front door does not."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.door_locked_at_end("garage"))
def main() -> None:
    unlock_door("garage")
    lock_door("garage")
    unlock_door("front")
