"""A removal outside tmp/."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import remove

import clauz3


@clauz3.guarantee(fs.only_delete_under("tmp"))
def main() -> None:
    remove("tmp/a.txt")
    remove("notes/a.txt")
