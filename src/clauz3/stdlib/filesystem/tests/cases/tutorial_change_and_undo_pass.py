"""The real-files tutorial's 'Change and undo' program."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import append_file

import clauz3


@clauz3.guarantee(fs.writes_at_most(1))
@clauz3.guarantee(fs.only_write_files(["notes/groceries.txt"]))
@clauz3.guarantee(fs.no_deletes())
def main() -> None:
    append_file("notes/groceries.txt", "milk\n")
