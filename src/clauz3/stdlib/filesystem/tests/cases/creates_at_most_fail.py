"""Three creations exceed two."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import copy, make_dir, touch

import clauz3


@clauz3.guarantee(fs.creates_at_most(2))
def main() -> None:
    make_dir("out")
    touch("out/a.txt")
    copy("out/a.txt", "out/b.txt")
