"""Listing is not reading; writing is not reading."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import list_dir, write_file

import clauz3


@clauz3.guarantee(fs.no_reads())
def main() -> None:
    list_dir("notes")
    write_file("output/x.txt", "x")
