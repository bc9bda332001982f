"""The last call breaks files.no_deletes()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import delete_file


@clauz3.guarantee(files.no_deletes())
def main() -> None:
    delete_file("13")
