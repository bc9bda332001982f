"""These calls keep files.deletes_only("11")."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import delete_file


@clauz3.guarantee(files.deletes_only("11"))
def main() -> None:
    delete_file("11")
