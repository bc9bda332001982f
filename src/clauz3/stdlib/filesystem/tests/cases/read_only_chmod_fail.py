"""chmod changes permission bits, which read_only excludes."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import chmod

import clauz3


@clauz3.guarantee(fs.read_only())
def main() -> None:
    chmod("notes/a.txt", 0o644)
