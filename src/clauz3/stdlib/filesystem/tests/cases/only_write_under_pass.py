"""./output/a is under output; so is output itself."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import write_file

import clauz3


@clauz3.guarantee(fs.only_write_under("output"))
def main() -> None:
    write_file("./output/a", "x")
    write_file("output/b/c.txt", "y")
