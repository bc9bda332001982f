"""These calls keep files.unchanged()."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import list_files


@clauz3.guarantee(files.unchanged())
def main() -> None:
    list_files()
