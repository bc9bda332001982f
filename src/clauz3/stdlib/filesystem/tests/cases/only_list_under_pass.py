"""list_dir and find below notes/."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import find, list_dir

import clauz3


@clauz3.guarantee(fs.only_list_under("notes"))
def main() -> None:
    list_dir("notes")
    find("notes/sub", "*.txt", "any", 2)
