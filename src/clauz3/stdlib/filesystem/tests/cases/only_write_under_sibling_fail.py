"""output2/x shares a text prefix with output but is not under it."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import write_file

import clauz3


@clauz3.guarantee(fs.only_write_under("output"))
def main() -> None:
    write_file("output2/x", "hello")
