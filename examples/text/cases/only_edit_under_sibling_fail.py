"""notes2/ is a sibling of notes/, not inside it (comparison is by path component)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file


@clauz3.guarantee(texts.only_edit_under("notes"))
def main() -> None:
    edit_file("notes/todo.txt", "- buy milk")
    edit_file("notes2/todo.txt", "- buy bread")
