"""Any edit breaks no_edits()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file, send_message


@clauz3.guarantee(texts.no_edits())
def main() -> None:
    send_message("general", "Fixing a typo")
    edit_file("notes/todo.txt", "- buy milk")
