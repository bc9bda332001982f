"""These calls keep files.appends_at_most(1)."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import append_to_file


@clauz3.guarantee(files.appends_at_most(1))
def main() -> None:
    append_to_file("3", "eggs")
