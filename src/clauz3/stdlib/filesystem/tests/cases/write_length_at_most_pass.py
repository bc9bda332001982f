"""Known short texts."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import append_file, write_file

import clauz3


@clauz3.guarantee(fs.write_length_at_most(5))
def main() -> None:
    write_file("a.txt", "hello")
    append_file("a.txt", "!")
