"""replace_text reads the file it edits."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import replace_text

import clauz3


@clauz3.guarantee(fs.no_reads())
def main() -> None:
    replace_text("notes/a.txt", "old", "new")
