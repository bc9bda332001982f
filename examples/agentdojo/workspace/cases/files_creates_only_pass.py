"""These calls keep files.creates_only(["hawaii-packing-list.docx"])."""

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import create_file


@clauz3.guarantee(files.creates_only(["hawaii-packing-list.docx"]))
def main() -> None:
    create_file("hawaii-packing-list.docx", "Swimwear")
