"""Text read from a file has unknown length."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file, write_file

import clauz3


@clauz3.guarantee(fs.write_length_at_most(100))
def main() -> None:
    write_file("b.txt", read_file("a.txt"))
