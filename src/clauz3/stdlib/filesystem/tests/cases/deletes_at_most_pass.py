"""One removal."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import remove

import clauz3


@clauz3.guarantee(fs.deletes_at_most(1))
def main() -> None:
    remove("a.txt")
