"""Absolute paths break the path precondition."""
# clauz3-expect: violated precondition

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_file

import clauz3


@clauz3.guarantee(fs.no_guarantees())
def main() -> None:
    read_file("/etc/passwd")
