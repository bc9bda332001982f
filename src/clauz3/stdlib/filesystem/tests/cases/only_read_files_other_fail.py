"""A file outside the list is read."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.only_read_files(["notes/a.txt"]))
def main() -> None:
    read_file("notes/a.txt")
    read_file("notes/secret.txt")
