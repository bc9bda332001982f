"""An edit of 17 characters breaks a limit of 16."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file


@clauz3.guarantee(texts.edit_length_at_most(16))
def main() -> None:
    edit_file("notes/todo.txt", "- buy milk, eggs!")
