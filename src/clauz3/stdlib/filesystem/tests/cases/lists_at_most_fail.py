"""Two listings exceed one."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import find, list_dir

import clauz3


@clauz3.guarantee(fs.lists_at_most(1))
def main() -> None:
    list_dir("notes")
    find(".", "*", "any", 1)
