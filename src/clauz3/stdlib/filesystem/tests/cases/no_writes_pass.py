"""make_dir and remove write no content."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import make_dir, remove

import clauz3


@clauz3.guarantee(fs.no_writes())
def main() -> None:
    make_dir("output/new")
    remove("output/old.txt")
