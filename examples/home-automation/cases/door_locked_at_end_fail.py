"""Relocking the wrong door leaves the garage unlocked."""
# clauz3-expect: violated guarantee

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.door_locked_at_end("garage"))
def main() -> None:
    unlock_door("garage")
    lock_door("front")
