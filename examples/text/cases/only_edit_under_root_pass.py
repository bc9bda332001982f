"""The project root "." covers every relative path."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file


@clauz3.guarantee(texts.only_edit_under("."))
def main() -> None:
    edit_file("README.md", "# Project")
    edit_file("notes/todo.txt", "- buy milk")
