"""No permission change."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import write_file

import clauz3


@clauz3.guarantee(fs.no_chmods())
def main() -> None:
    write_file("a.txt", "x")
