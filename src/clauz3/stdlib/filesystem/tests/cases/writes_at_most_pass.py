"""Writes in exclusive branches count once."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file, write_file

import clauz3


@clauz3.guarantee(fs.writes_at_most(1))
def main() -> None:
    text = read_file("a.txt")
    if len(text) > 10:
        write_file("long.txt", text)
    else:
        write_file("short.txt", text)
