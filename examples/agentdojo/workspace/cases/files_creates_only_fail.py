"""The last call breaks files.creates_only(["hawaii-packing-list.docx"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import create_file


@clauz3.guarantee(files.creates_only(["hawaii-packing-list.docx"]))
def main() -> None:
    create_file("notes.txt", "x")
