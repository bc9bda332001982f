"""These calls keep files.appends_only("3")."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import append_to_file


@clauz3.guarantee(files.appends_only("3"))
def main() -> None:
    append_to_file("3", "Two more activities")
