"""A write contains the forbidden text."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import write_file

import clauz3


@clauz3.guarantee(fs.writes_must_not_contain("password"))
def main() -> None:
    write_file("a.txt", "the password is x")
