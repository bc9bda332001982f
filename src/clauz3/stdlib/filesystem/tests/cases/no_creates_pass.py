"""Appending and editing create nothing."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import append_file, edit_lines

import clauz3


@clauz3.guarantee(fs.no_creates())
def main() -> None:
    append_file("a.txt", "x")
    edit_lines("a.txt", 1, 2, "y")
