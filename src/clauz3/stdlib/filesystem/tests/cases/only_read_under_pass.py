"""Reads below notes/, in any spelling the grammar admits."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import grep, read_file, read_line

import clauz3


@clauz3.guarantee(fs.only_read_under("notes"))
def main() -> None:
    read_file("notes/a.txt")
    read_line("./notes/deep/b.txt", 2)
    grep("x", "notes/c.txt")
