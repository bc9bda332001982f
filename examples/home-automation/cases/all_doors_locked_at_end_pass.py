"""Unlock the front door for a delivery, then lock it again: every door ends locked."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.all_doors_locked_at_end())
@clauz3.guarantee(home.only_unlock_doors(["front"]))
def main() -> None:
    unlock_door("front")
    lock_door("front")
