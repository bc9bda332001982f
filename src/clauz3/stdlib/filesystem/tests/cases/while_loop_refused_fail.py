"""A while loop is outside the checked subset."""
# clauz3-expect: refused unsupported-statement

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.read_only())
def main() -> None:
    n = 0
    while n < 2:
        read_file("a.txt")
        n += 1
