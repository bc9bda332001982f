"""Reads elsewhere, including a sibling with a shared prefix."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.never_read_under("secrets"))
def main() -> None:
    read_file("secrets2/a.txt")
    read_file("notes/secrets")
