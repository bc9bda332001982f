"""no_guarantees promises nothing; valid paths prove."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file, write_file

import clauz3


@clauz3.guarantee(fs.no_guarantees())
def main() -> None:
    text = read_file("notes/a.txt")
    write_file("output/a.txt", text)
