"""The written text is known not to contain the word."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import replace_text, write_file

import clauz3


@clauz3.guarantee(fs.writes_must_not_contain("password"))
def main() -> None:
    write_file("a.txt", "hello")
    replace_text("a.txt", "hello", "goodbye")
