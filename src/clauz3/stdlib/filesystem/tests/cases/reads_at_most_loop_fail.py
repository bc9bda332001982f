"""An unrolled loop reads three files."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.reads_at_most(2))
def main() -> None:
    for name in ["a.txt", "b.txt", "c.txt"]:
        read_file(name)
