"""write_file plus copy make two writes."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import copy, write_file

import clauz3


@clauz3.guarantee(fs.writes_at_most(1))
def main() -> None:
    write_file("a.txt", "x")
    copy("a.txt", "b.txt")
