"""Writes and copies delete nothing."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import copy, write_file

import clauz3


@clauz3.guarantee(fs.no_deletes())
def main() -> None:
    write_file("a.txt", "x")
    copy("a.txt", "b.txt")
