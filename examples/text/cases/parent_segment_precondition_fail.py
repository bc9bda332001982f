"""A path with a ".." segment breaks edit_file's precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file


@clauz3.guarantee(texts.only_edit_under("notes"))
def main() -> None:
    edit_file("notes/../secrets.txt", "oops")
