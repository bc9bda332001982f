"""copy writes its destination, which is not listed."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import copy

import clauz3


@clauz3.guarantee(fs.only_write_files(["notes/groceries.txt"]))
def main() -> None:
    copy("notes/groceries.txt", "notes/copy.txt")
