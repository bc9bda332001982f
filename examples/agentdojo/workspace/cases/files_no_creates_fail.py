"""The last call breaks files.no_creates()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import create_file


@clauz3.guarantee(files.no_creates())
def main() -> None:
    create_file("notes.txt", "x")
