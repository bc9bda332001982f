"""move writes unknown content (Write without text)."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import move

import clauz3


@clauz3.guarantee(fs.writes_must_not_contain("password"))
def main() -> None:
    move("a.txt", "b.txt")
