"""Listing the project root is not under notes/."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import list_dir

import clauz3


@clauz3.guarantee(fs.only_list_under("notes"))
def main() -> None:
    list_dir(".")
