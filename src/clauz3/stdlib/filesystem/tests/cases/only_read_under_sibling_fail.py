"""notes2/ is not under notes/."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.only_read_under("notes"))
def main() -> None:
    read_file("notes2/a.txt")
