"""Line numbers are 1-based."""
# clauz3-expect: violated precondition

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import read_line

import clauz3


@clauz3.guarantee(fs.no_guarantees())
def main() -> None:
    read_line("a.txt", 0)
