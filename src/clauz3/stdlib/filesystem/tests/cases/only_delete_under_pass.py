"""Removes and moves out of tmp/ only."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import move, remove

import clauz3


@clauz3.guarantee(fs.only_delete_under("tmp"))
def main() -> None:
    remove("tmp/a.txt")
    move("./tmp/b.txt", "keep/b.txt")
