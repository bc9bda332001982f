"""touch creates a file, which read_only excludes."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file, touch

import clauz3


@clauz3.guarantee(fs.read_only())
def main() -> None:
    read_file("notes/a.txt")
    touch("notes/b.txt")
