"""copy writes unknown content, so no length can be proved."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import copy

import clauz3


@clauz3.guarantee(fs.write_length_at_most(100))
def main() -> None:
    copy("a.txt", "b.txt")
