"""Short edits."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file


@clauz3.guarantee(texts.edit_length_at_most(10))
def main() -> None:
    edit_file("notes/todo.txt", "- buy milk")
    edit_file("notes/done.txt", "")
