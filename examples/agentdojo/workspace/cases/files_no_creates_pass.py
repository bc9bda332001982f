"""These calls keep files.no_creates()."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import append_to_file


@clauz3.guarantee(files.no_creates())
def main() -> None:
    append_to_file("3", "Two more activities")
