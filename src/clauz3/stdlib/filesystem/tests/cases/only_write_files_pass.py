"""Writes only to the listed file, via several effects."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import append_file, edit_lines, write_file

import clauz3


@clauz3.guarantee(fs.only_write_files(["notes/groceries.txt"]))
def main() -> None:
    append_file("notes/groceries.txt", "milk\n")
    edit_lines("./notes/groceries.txt", 1, 1, "eggs")
    write_file("notes/groceries.txt", "bread\n")
