"""write_file may create its file."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import write_file

import clauz3


@clauz3.guarantee(fs.no_creates())
def main() -> None:
    write_file("a.txt", "x")
