"""Both spellings of a listed file count; copy reads its source."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import copy, read_file

import clauz3


@clauz3.guarantee(fs.only_read_files(["notes/a.txt", "notes/b.txt"]))
def main() -> None:
    read_file("./notes/a.txt")
    copy("notes/b.txt", "output/b.txt")
