"""Reads, listings and searches only."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import find, grep, list_dir, read_file, read_line, read_lines

import clauz3


@clauz3.guarantee(fs.read_only())
def main() -> None:
    read_file("notes/a.txt")
    read_lines("notes/a.txt")
    read_line("notes/a.txt", 1)
    grep("milk", "notes/groceries.txt")
    list_dir(".")
    find(".", "*.md", "file", 3)
