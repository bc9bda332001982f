"""These calls keep files.no_deletes()."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import create_file


@clauz3.guarantee(files.no_deletes())
def main() -> None:
    create_file("hawaii-packing-list.docx", "Swimwear")
