"""The directory '.' covers the whole project."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.only_read_under("."))
def main() -> None:
    read_file("a.txt")
    read_file("deep/er/b.txt")
