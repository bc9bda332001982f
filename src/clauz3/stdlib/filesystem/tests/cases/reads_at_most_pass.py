"""Two reads within a limit of two; the dead branch does not count."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.reads_at_most(2))
def main() -> None:
    read_file("a.txt")
    if False:
        read_file("b.txt")
    read_file("c.txt")
