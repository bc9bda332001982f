"""One listing."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import list_dir, read_file

import clauz3


@clauz3.guarantee(fs.lists_at_most(1))
def main() -> None:
    list_dir("notes")
    read_file("notes/a.txt")
