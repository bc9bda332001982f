"""One branch writes into config/."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file, write_file

import clauz3


@clauz3.guarantee(fs.never_write_under("config"))
def main() -> None:
    text = read_file("notes/a.txt")
    if "x" in text:
        write_file("config/a.txt", text)
