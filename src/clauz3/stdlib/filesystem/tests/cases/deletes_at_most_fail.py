"""A removal and a move delete twice."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import move, remove

import clauz3


@clauz3.guarantee(fs.deletes_at_most(1))
def main() -> None:
    remove("a.txt")
    move("b.txt", "c.txt")
