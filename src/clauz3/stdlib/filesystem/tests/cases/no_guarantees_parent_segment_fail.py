"""A '..' segment breaks the path precondition whatever the guarantees."""
# clauz3-expect: violated precondition

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import write_file

import clauz3


@clauz3.guarantee(fs.no_guarantees())
def main() -> None:
    write_file("../outside.txt", "x")
