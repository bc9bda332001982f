"""The last call breaks files.no_appends()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import append_to_file


@clauz3.guarantee(files.no_appends())
def main() -> None:
    append_to_file("9", "eggs")
