"""Writes outside config/, guarded by a branch on read content."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file, write_file

import clauz3


@clauz3.guarantee(fs.never_write_under("config"))
def main() -> None:
    text = read_file("notes/a.txt")
    if "x" in text:
        write_file("configs/a.txt", text)
    else:
        write_file("output/a.txt", text)
