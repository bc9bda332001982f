"""move deletes its source."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import move

import clauz3


@clauz3.guarantee(fs.no_deletes())
def main() -> None:
    move("a.txt", "b.txt")
