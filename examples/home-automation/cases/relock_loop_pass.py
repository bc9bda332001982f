"""Each door in a literal list is unlocked and relocked (unrolled loop)."""

import clauz3
from tools.home.trusted import contracts as home
from tools.home.trusted.effects import lock_door, unlock_door


@clauz3.guarantee(home.all_doors_locked_at_end())
def main() -> None:
    for door in ["front", "garage"]:
        unlock_door(door)
        lock_door(door)
