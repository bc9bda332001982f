"""A directory and a file: two creations."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import make_dir, touch

import clauz3


@clauz3.guarantee(fs.creates_at_most(2))
def main() -> None:
    make_dir("out")
    touch("out/a.txt")
