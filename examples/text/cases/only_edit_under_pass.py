"""Edits below notes/ and the folder-scoped root given with a trailing slash."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file


@clauz3.guarantee(texts.only_edit_under("notes"))
@clauz3.guarantee(texts.only_edit_under("notes/"))
def main() -> None:
    edit_file("notes/todo.txt", "- buy milk")
    edit_file("notes/2024/march.md", "# March")
